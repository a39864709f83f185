import { describe, expect, it } from 'vitest';
import { detailFields, type SchemaError, validationFields } from './validation.ts';

const error = (e: Partial<SchemaError>): SchemaError => ({
  instancePath: '',
  schemaPath: '#',
  keyword: 'type',
  params: {},
  ...e,
});

describe('the fields a code-4 answer names', () => {
  it('from a schema failure: the path inside the part, the missing or unexpected property included', () => {
    expect(validationFields([error({ instancePath: '/name', keyword: 'maxLength' })], 'body')).toEqual(['name']);
    expect(validationFields([error({ instancePath: '/profiles/0/name' })], 'body')).toEqual(['profiles.0.name']);
    expect(validationFields([error({ keyword: 'required', params: { missingProperty: 'sn' } })], 'querystring')).toEqual(['sn']);
    expect(validationFields([error({ keyword: 'additionalProperties', params: { additionalProperty: 'x' } })], 'body')).toEqual([
      'x',
    ]);
    // The body as a whole is wrong: no field.
    expect(validationFields([error({ params: { type: 'object' } })], 'body')).toEqual([]);
    expect(validationFields([], 'body')).toEqual([]);
  });

  it("from a handler's detail: the path it starts with, marked by a request part or a colon", () => {
    expect(detailFields('body.name must be 5 to 32 characters')).toEqual(['name']);
    expect(detailFields('body.priceSegments: the last segment must end at 23:59')).toEqual(['priceSegments']);
    expect(detailFields('body.profiles/3/params: unknown parameter')).toEqual(['profiles.3.params']);
    expect(detailFields('query.startDate and query.endDate must be dates')).toEqual(['startDate', 'endDate']);
    expect(detailFields('parentId: a type cannot be its own parent')).toEqual(['parentId']);
    expect(detailFields('query: the date range spans at most 31 days')).toEqual([]);
    expect(detailFields('query.params: this device has no parameter "x"')).toEqual(['params']);
    expect(detailFields('the form must be sent as multipart/form-data')).toEqual([]);
    expect(detailFields('file is required')).toEqual([]);
  });
});

/**
 * The multipart form of company/user/add: text fields checked against the contract's schema
 * (bad input: code 4 naming the field and the rule), and the optional avatar file (field
 * "avatar", at most 6 MB).
 */
import { type BodyOf, companyApi, ErrorCode, type Language, limits } from '@sunfleet/contracts';
import type { FastifyRequest } from 'fastify';
import { Compile } from 'typebox/compile';
import { fail } from '../../http/errors.ts';
import { describeValidation, type SchemaError } from '../../http/validation.ts';

const check = Compile(companyApi.AddUserFields);
const numeric = new Set(['roleId']);

export async function readUserForm(req: FastifyRequest, lan: Language) {
  if (!req.isMultipart()) return fail(ErrorCode.validation, 'the form must be sent as multipart/form-data');
  const fields: Record<string, unknown> = {};
  let avatar: Buffer | null = null;
  for await (const part of req.parts({ limits: { fileSize: limits.avatarBytes, files: 1, fields: 20 } })) {
    if (part.type === 'file') {
      // Any other file field is read and dropped; the schema check below names the unknown field.
      if (part.fieldname === 'avatar') avatar = await part.toBuffer();
      else part.file.resume();
      if (part.fieldname !== 'avatar') fields[part.fieldname] = '(file)';
      continue;
    }
    const text = String(part.value);
    // An empty field is one the form left blank.
    if (text === '') continue;
    fields[part.fieldname] = numeric.has(part.fieldname) && /^[0-9]{1,10}$/.test(text) ? Number(text) : text;
  }
  if (!check.Check(fields))
    fail(ErrorCode.validation, describeValidation([...check.Errors(fields)] as unknown as SchemaError[], 'body', lan));
  return { fields: fields as BodyOf<typeof companyApi.addUser>, avatar: avatar && avatar.length > 0 ? avatar : null };
}

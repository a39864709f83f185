/**
 * Form rules read from an endpoint's body schema (length and pattern of a string field), so a
 * form enforces exactly what the contract declares without restating it.
 */
import type { FormRule } from 'antd';

interface StringSchema {
  type?: string;
  pattern?: string;
  maxLength?: number;
  minLength?: number;
}
interface ObjectSchema {
  properties?: Record<string, StringSchema & { anyOf?: StringSchema[] }>;
}

export function stringField(body: unknown, key: string): StringSchema | undefined {
  const prop = (body as ObjectSchema | undefined)?.properties?.[key];
  if (!prop) return undefined;
  return (prop.anyOf ?? [prop]).find((s) => s.type === 'string');
}

/** `max` and `pattern` rules of a string field of a body schema. */
export function schemaRules(body: unknown, key: string, messages: { max?: string; pattern?: string }): FormRule[] {
  const field = stringField(body, key);
  if (!field) return [];
  const rules: FormRule[] = [];
  if (field.maxLength !== undefined) rules.push({ max: field.maxLength, message: messages.max });
  if (field.pattern) rules.push({ pattern: new RegExp(field.pattern), message: messages.pattern });
  return rules;
}

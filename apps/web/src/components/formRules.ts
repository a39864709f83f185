/**
 * Form rules built on the contracts' validators, so a value a form accepts is a
 * value the server accepts. Messages come from the `common` catalogue (`validation.*`).
 */
import { CODE_PATTERN, isEmail, isPassword, limits } from '@sunfleet/contracts';
import type { FormRule } from 'antd';
import type { TFunction } from 'i18next';

type Rule = FormRule;

export function emailRules(t: TFunction): Rule[] {
  return [
    { required: true, message: t('validation.emailRequired') },
    {
      validator: (_, value: string | undefined) =>
        !value || isEmail(value) ? Promise.resolve() : Promise.reject(new Error(t('validation.email'))),
    },
  ];
}

export function passwordRules(t: TFunction, requiredKey = 'validation.passwordRequired'): Rule[] {
  return [
    { required: true, message: t(requiredKey) },
    {
      validator: (_, value: string | undefined) =>
        !value || isPassword(value)
          ? Promise.resolve()
          : Promise.reject(new Error(t('validation.password', { min: limits.password.min, max: limits.password.max }))),
    },
  ];
}

/** The re-entry must match the field `other`. */
export function confirmRules(t: TFunction, other: string): Rule[] {
  return [
    { required: true, message: t('validation.confirmRequired') },
    ({ getFieldValue }) => ({
      validator: (_, value: string | undefined) =>
        !value || value === getFieldValue(other) ? Promise.resolve() : Promise.reject(new Error(t('validation.mismatch'))),
    }),
  ];
}

const code = new RegExp(CODE_PATTERN);
export function codeRules(t: TFunction): Rule[] {
  return [
    { required: true, message: t('validation.codeRequired') },
    { pattern: code, message: t('validation.code', { digits: limits.verificationCode.digits }) },
  ];
}

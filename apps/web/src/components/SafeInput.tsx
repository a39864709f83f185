/**
 * A text input that refuses the forbidden characters (the contracts' `hasForbiddenChars`;
 * typed or pasted), shows the input-limit message when it does, and trims whitespace on blur.
 * Form.Item-friendly: `value` in, `onChange(value)` out.
 */
import { FORBIDDEN_CHARS } from '@sunfleet/contracts';
import { Input, type InputProps, type InputRef } from 'antd';
import { type ChangeEvent, type FocusEvent, forwardRef, useMemo, useState } from 'react';
import { useInputNotice } from './inputNotice.ts';

export interface SafeInputProps extends Omit<InputProps, 'value' | 'onChange'> {
  value?: string;
  onChange?: (value: string) => void;
  /** Forbidden characters this field still accepts (e.g. `+` in e-mail addresses). */
  allowChars?: string;
}

function forbiddenPattern(allow: string): RegExp {
  const chars = [...FORBIDDEN_CHARS].filter((c) => !allow.includes(c)).join('');
  return new RegExp(`[${chars.replace(/[\]\\^-]/g, '\\$&')}]`, 'g');
}

export const SafeInput = forwardRef<InputRef, SafeInputProps>(function SafeInput(
  { value, onChange, onBlur, allowChars = '', ...rest },
  ref,
) {
  const notice = useInputNotice();
  const pattern = useMemo(() => forbiddenPattern(allowChars), [allowChars]);
  const [own, setOwn] = useState('');
  const current = value ?? own;
  const emit = (next: string) => {
    if (value === undefined) setOwn(next);
    onChange?.(next);
  };
  const handleChange = (e: ChangeEvent<HTMLInputElement>) => {
    const typed = e.target.value;
    const clean = typed.replace(pattern, '');
    if (clean !== typed) notice('inputLimit');
    emit(clean);
  };
  const handleBlur = (e: FocusEvent<HTMLInputElement>) => {
    const trimmed = current.trim();
    if (trimmed !== current) emit(trimmed);
    onBlur?.(e);
  };
  return <Input ref={ref} {...rest} value={current} onChange={handleChange} onBlur={handleBlur} />;
});

/** E-mail addresses may hold `+`, `%` and `'` (the shared e-mail rule accepts them). */
export const EmailInput = forwardRef<InputRef, Omit<SafeInputProps, 'allowChars'>>(function EmailInput(props, ref) {
  return <SafeInput ref={ref} type="email" autoComplete="email" inputMode="email" allowChars="+%'" {...props} />;
});

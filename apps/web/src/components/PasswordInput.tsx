/** A password input that refuses spaces with the password input-limit message. */
import { Input, type InputRef } from 'antd';
import type { PasswordProps } from 'antd/es/input';
import { type ChangeEvent, forwardRef, useState } from 'react';
import { useInputNotice } from './inputNotice.ts';
import parts from './parts.module.css';

export interface PasswordInputProps extends Omit<PasswordProps, 'value' | 'onChange'> {
  value?: string;
  onChange?: (value: string) => void;
}

export const PasswordInput = forwardRef<InputRef, PasswordInputProps>(function PasswordInput({ value, onChange, ...rest }, ref) {
  const notice = useInputNotice();
  const [own, setOwn] = useState('');
  const handleChange = (e: ChangeEvent<HTMLInputElement>) => {
    const typed = e.target.value;
    const clean = typed.replace(/\s+/g, '');
    if (clean !== typed) notice('passwordInputLimit');
    if (value === undefined) setOwn(clean);
    onChange?.(clean);
  };
  const rootClassName = rest.rootClassName ? `${parts.password} ${rest.rootClassName}` : parts.password;
  return <Input.Password ref={ref} {...rest} rootClassName={rootClassName} value={value ?? own} onChange={handleChange} />;
});

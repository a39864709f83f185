/**
 * A verification-code field with its "send code" button: the button runs `onSend` (which
 * validates the e-mail and asks the server) and then counts down 60 s before it may resend.
 */
import { SafetyOutlined } from '@ant-design/icons';
import { limits } from '@sunfleet/contracts';
import { Button, Input, Space } from 'antd';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useGuardedAction } from '../api/guard.ts';
import parts from './parts.module.css';
import { useCountdown } from './useCountdown.ts';

export interface CodeInputProps {
  value?: string;
  onChange?: (value: string) => void;
  /** Resolves true when a code was sent (the countdown starts). */
  onSend: () => Promise<boolean>;
  id?: string;
}

export function CodeInput({ value, onChange, onSend, id }: CodeInputProps) {
  const { t } = useTranslation('auth');
  const [remaining, startCountdown] = useCountdown();
  const [send, sending] = useGuardedAction(async () => {
    if (await onSend()) startCountdown();
  });
  const digitsOnly = (e: ChangeEvent<HTMLInputElement>) => onChange?.(e.target.value.replace(/\D/g, ''));
  return (
    <Space.Compact block>
      <Input
        id={id}
        value={value}
        onChange={digitsOnly}
        prefix={<SafetyOutlined />}
        maxLength={limits.verificationCode.digits}
        inputMode="numeric"
        autoComplete="one-time-code"
        placeholder={t('codePlaceholder')}
        data-testid="code-input"
      />
      <Button onClick={send} loading={sending} disabled={remaining > 0} data-testid="send-code" className={parts.sendCode}>
        {remaining > 0 ? t('resendIn', { seconds: remaining }) : t('sendCode')}
      </Button>
    </Space.Compact>
  );
}

/** A seconds countdown for "send code again" buttons. */
import { limits } from '@sunfleet/contracts';
import { useCallback, useEffect, useState } from 'react';

/** Seconds before another verification code may be requested. */
export const CODE_RESEND_SECONDS = limits.codeResendSeconds;

export function useCountdown(seconds = CODE_RESEND_SECONDS): [remaining: number, start: () => void] {
  const [remaining, setRemaining] = useState(0);
  useEffect(() => {
    if (remaining <= 0) return;
    const timer = setTimeout(() => setRemaining((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [remaining]);
  const start = useCallback(() => setRemaining(seconds), [seconds]);
  return [remaining, start];
}

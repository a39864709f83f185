/** A button that ignores repeat clicks until its request ends (or 3000 ms). */
import { Button, type ButtonProps } from 'antd';
import type { MouseEvent } from 'react';
import { useGuardedAction } from '../api/guard.ts';

export interface GuardedButtonProps extends Omit<ButtonProps, 'onClick'> {
  onClick?: (e: MouseEvent<HTMLElement>) => unknown;
  guardMs?: number;
}

export function GuardedButton({ onClick, guardMs, loading, ...rest }: GuardedButtonProps) {
  const [run, busy] = useGuardedAction((e: MouseEvent<HTMLElement>) => onClick?.(e), guardMs);
  return <Button {...rest} loading={loading ?? busy} onClick={run} />;
}

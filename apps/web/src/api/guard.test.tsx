import { limits } from '@sunfleet/contracts';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GuardedButton } from '../components/GuardedButton.tsx';
import { renderWithApp } from '../test/render.tsx';
import { createActionGuard } from './guard.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('createActionGuard', () => {
  it('ignores repeats for 3000 ms after an action that is not a request', () => {
    const guard = createActionGuard();
    const action = vi.fn();
    expect(guard.run(action)).toBe(true);
    expect(guard.run(action)).toBe(false);
    vi.advanceTimersByTime(limits.requestButtonGuardMs - 1);
    expect(guard.run(action)).toBe(false);
    vi.advanceTimersByTime(1);
    expect(guard.run(action)).toBe(true);
    expect(action).toHaveBeenCalledTimes(2);
  });

  it('ignores repeats until the request ends, however long it takes', async () => {
    const guard = createActionGuard();
    let finish!: () => void;
    const action = vi.fn(() => new Promise<void>((resolve) => (finish = resolve)));
    guard.run(action);
    vi.advanceTimersByTime(10_000);
    expect(guard.run(action)).toBe(false);
    finish();
    await Promise.resolve();
    await Promise.resolve();
    expect(guard.run(action)).toBe(true);
    expect(action).toHaveBeenCalledTimes(2);
  });

  it('a failed request releases the guard', async () => {
    const guard = createActionGuard();
    guard.run(() => Promise.reject(new Error('x')).catch(() => {}));
    await Promise.resolve();
    await Promise.resolve();
    expect(guard.busy).toBe(false);
  });
});

describe('GuardedButton', () => {
  it('runs once for a burst of clicks within 3000 ms', () => {
    const onClick = vi.fn();
    renderWithApp(
      <GuardedButton onClick={onClick} data-testid="go">
        Go
      </GuardedButton>,
    );
    const button = screen.getByTestId('go');
    fireEvent.click(button);
    fireEvent.click(button);
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(1);
    act(() => {
      vi.advanceTimersByTime(limits.requestButtonGuardMs);
    });
    fireEvent.click(button);
    expect(onClick).toHaveBeenCalledTimes(2);
  });
});

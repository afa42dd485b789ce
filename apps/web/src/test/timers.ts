import { act } from '@testing-library/react';
import { vi } from 'vitest';

/** Moves fake timers on by `ms` inside act(), so the promises, timers and React updates due by then settle. */
export function advance(ms: number): Promise<void> {
  return act(() => vi.advanceTimersByTimeAsync(ms).then(() => undefined));
}

/** Lets what is already due (resolved requests, 0 ms timers) settle, with the React updates it causes. */
export function flush(): Promise<void> {
  return advance(0);
}

import { ALERT_HIDE_MS } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createAlertStore, type AlertStore } from './alert-store.js';

const messages = (store: AlertStore): string[] => store.getSnapshot().map((alert) => alert.message);

describe('alert store', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hides an alert after ALERT_HIDE_MS (3000 ms)', () => {
    expect(ALERT_HIDE_MS).toBe(3000);
    const store = createAlertStore();
    store.show('error', 'Song not deleted');
    vi.advanceTimersByTime(2999);
    expect(messages(store)).toEqual(['Song not deleted']);
    vi.advanceTimersByTime(1);
    expect(messages(store)).toEqual([]);
  });

  it('hides at once when closed, and the old timer does nothing afterwards', () => {
    const store = createAlertStore();
    const listener = vi.fn();
    store.subscribe(listener);
    const id = store.show('success', 'Song added successfully');
    store.dismiss(id);
    expect(messages(store)).toEqual([]);
    const calls = listener.mock.calls.length;
    vi.advanceTimersByTime(5000);
    expect(listener).toHaveBeenCalledTimes(calls);
  });

  it('stacks alerts and each keeps its own timer', () => {
    const store = createAlertStore();
    store.show('error', 'first');
    vi.advanceTimersByTime(1000);
    store.show('success', 'second');
    vi.advanceTimersByTime(1000);
    store.show('error', 'third');
    expect(messages(store)).toEqual(['first', 'second', 'third']);

    vi.advanceTimersByTime(1000); // t = 3000
    expect(messages(store)).toEqual(['second', 'third']);
    vi.advanceTimersByTime(1000); // t = 4000
    expect(messages(store)).toEqual(['third']);
    vi.advanceTimersByTime(1000); // t = 5000
    expect(messages(store)).toEqual([]);
  });

  it('closing one stacked alert leaves the others and their timers alone', () => {
    const store = createAlertStore();
    const first = store.show('error', 'first');
    vi.advanceTimersByTime(500);
    store.show('error', 'second');
    store.dismiss(first);
    expect(messages(store)).toEqual(['second']);
    vi.advanceTimersByTime(2999);
    expect(messages(store)).toEqual(['second']);
    vi.advanceTimersByTime(1);
    expect(messages(store)).toEqual([]);
  });

  it('shows a repeated identical alert once, with a fresh timer', () => {
    const store = createAlertStore();
    store.show('error', 'Error fetching artists');
    vi.advanceTimersByTime(2000);
    store.show('error', 'Error fetching artists');
    expect(messages(store)).toEqual(['Error fetching artists']);
    vi.advanceTimersByTime(2000);
    expect(messages(store)).toEqual(['Error fetching artists']);
    vi.advanceTimersByTime(1000);
    expect(messages(store)).toEqual([]);
  });

  it('keeps the kind and the detail line', () => {
    const store = createAlertStore();
    store.show('error', 'Failed to add song', 'This audio file is already in the catalogue');
    expect(store.getSnapshot()[0]).toMatchObject({
      kind: 'error',
      message: 'Failed to add song',
      detail: 'This audio file is already in the catalogue',
    });
  });
});

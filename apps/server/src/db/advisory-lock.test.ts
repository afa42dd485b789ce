import { expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { AdvisoryLocks, withAdvisoryLock } from './advisory-lock.js';

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describeEachDialect('advisory locks (%s)', { uses: 'database' }, (t) => {
  const key = AdvisoryLocks.blobSweep;

  it('"try" skips the work while another connection (another instance) holds the lock', async () => {
    const held = gate();
    const entered = gate();
    const holding = withAdvisoryLock(t.db, t.dialect, key, 'try', () => {
      entered.open();
      return held.opened.then(() => 'first');
    });
    // The first holds the lock before the second tries.
    await entered.opened;
    const second = await withAdvisoryLock(t.db, t.dialect, key, 'try', () => Promise.resolve('second'));
    held.open();
    expect(await holding).toEqual({ ran: true, value: 'first' });
    expect(second).toEqual({ ran: false });
    // Released: the next one runs.
    expect(await withAdvisoryLock(t.db, t.dialect, key, 'try', () => Promise.resolve(3))).toEqual({
      ran: true,
      value: 3,
    });
  });

  it('"wait" runs the works one after the other, and releases the lock when the work fails', async () => {
    const order: string[] = [];
    const work = (name: string) => async () => {
      order.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      order.push(`${name} out`);
    };
    await Promise.all([
      withAdvisoryLock(t.db, t.dialect, key, 'wait', work('a')),
      withAdvisoryLock(t.db, t.dialect, key, 'wait', work('b')),
    ]);
    // Which of the two takes the lock first is a race on PostgreSQL (two pooled connections): only the turns are sure.
    const first = order[0]?.charAt(0) ?? '?';
    const second = first === 'a' ? 'b' : 'a';
    expect(order).toEqual([`${first} in`, `${first} out`, `${second} in`, `${second} out`]);

    await expect(
      withAdvisoryLock(t.db, t.dialect, key, 'wait', () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    expect((await withAdvisoryLock(t.db, t.dialect, key, 'try', () => Promise.resolve(1))).ran).toBe(true);
  });
});

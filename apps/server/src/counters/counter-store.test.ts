import { describe, expect, it } from 'vitest';
import { describeEachDialect } from '../../test/dialects.js';
import { DatabaseCounterStore, MemoryCounterStore, type CounterStore } from './counter-store.js';

const minute = 60_000;

/** The behaviour both stores share, on a clock the test moves. */
function behavesAsCounters(make: (clock: () => number) => CounterStore): void {
  let now = 1_700_000_000_000;
  const clock = () => now;

  it('counts hits in a window that starts with the first and ends windowMs later', async () => {
    const counters = make(clock);
    expect(await counters.hit('a', minute)).toEqual({ count: 1, resetsAtMs: now + minute });
    const end = now + minute;
    now += 30_000;
    expect(await counters.hit('a', minute)).toEqual({ count: 2, resetsAtMs: end });
    expect(await counters.read('a')).toEqual({ count: 2, resetsAtMs: end });
    now = end;
    expect(await counters.read('a')).toEqual({ count: 0, resetsAtMs: now });
    expect(await counters.hit('a', minute)).toEqual({ count: 1, resetsAtMs: now + minute });
  });

  it('hitBelow counts only under the maximum, and a hit taken back frees its place in the same window', async () => {
    const counters = make(clock);
    const first = await counters.hitBelow('b', 2, minute);
    expect(first?.count).toBe(1);
    const second = await counters.hitBelow('b', 2, minute);
    expect(second?.count).toBe(2);
    expect(await counters.hitBelow('b', 2, minute)).toBeNull();
    if (second === null) throw new Error('expected a place');
    await counters.takeBack('b', second);
    expect((await counters.hitBelow('b', 2, minute))?.count).toBe(2);
    expect(await counters.hitBelow('b', 0, minute)).toBeNull();
  });

  it('takes nothing back from a window that started after the hit, and clear forgets the key', async () => {
    const counters = make(clock);
    const old = await counters.hit('c', minute);
    now += minute;
    await counters.hit('c', minute);
    await counters.takeBack('c', old);
    expect((await counters.read('c')).count).toBe(1);
    await counters.clear('c');
    expect((await counters.read('c')).count).toBe(0);
  });
}

describe('MemoryCounterStore', () => {
  behavesAsCounters((clock) => new MemoryCounterStore(clock));

  it('keeps at most its number of keys, forgetting the least recently counted', async () => {
    const counters = new MemoryCounterStore(Date.now, 2);
    await counters.hit('a', minute);
    await counters.hit('b', minute);
    await counters.hit('a', minute);
    await counters.hit('c', minute);
    expect((await counters.read('a')).count).toBe(2);
    expect((await counters.read('b')).count).toBe(0);
    expect((await counters.read('c')).count).toBe(1);
  });
});

describeEachDialect('DatabaseCounterStore (%s)', { uses: 'database', fresh: 'each' }, (t) => {
  behavesAsCounters((clock) => new DatabaseCounterStore(t.db, clock));

  it('two stores on one database (two instances) count together, and never past the maximum at once', async () => {
    const one = new DatabaseCounterStore(t.db);
    const other = new DatabaseCounterStore(t.db);
    const places = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? one : other).hitBelow('login:user:1', 5, minute)),
    );
    expect(places.filter((place) => place !== null)).toHaveLength(5);
    await Promise.all(Array.from({ length: 6 }, (_, i) => (i % 2 === 0 ? one : other).hit('route:x', minute)));
    expect((await one.read('route:x')).count).toBe(6);
  });

  it('prunes rows of ended windows, at most once a minute', async () => {
    let now = 1_700_000_000_000;
    const counters = new DatabaseCounterStore(t.db, () => now);
    await counters.hit('old', 1000);
    now += 2000;
    await counters.hit('young', minute);
    expect(await t.db.selectFrom('rate_counters').select('key').orderBy('key').execute()).toHaveLength(2);
    now += minute;
    await counters.hit('young', 10 * minute);
    const keys = await t.db.selectFrom('rate_counters').select('key').execute();
    expect(keys.map((row) => row.key)).toEqual(['young']);
  });
});

import { UserListResponse, UserSort } from '@tonearm/contract';
import { beforeAll, expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, type TestUser } from '../../../test/factories.js';
import { expectBadCursor, pageThrough, urlOf, type Query } from '../../../test/pages.js';
import type { RoleValue } from '../../db/schema.js';
import type { UserSortKey } from './users.repository.js';

interface Member {
  username: string;
  role: RoleValue;
  premiumUntil: string | null;
  createdAt: string;
}

/*
 * Ties in every sort but the unique ones (role: 3 admins, 4 users; premium: three without, two the same; two created
 * at the same instant), and names of plain lower-case letters that differ early, so that every collation orders them
 * as this test does.
 */
const MEMBERS: Member[] = [
  { username: 'zqdelta', role: 'USER', premiumUntil: null, createdAt: '2026-01-02T00:00:00.000Z' },
  {
    username: 'zqAlpha',
    role: 'ADMIN',
    premiumUntil: '2027-01-01T00:00:00.000Z',
    createdAt: '2026-01-01T00:00:00.000Z',
  },
  { username: 'zqgolf', role: 'USER', premiumUntil: null, createdAt: '2026-01-02T00:00:00.000Z' },
  {
    username: 'zqCharlie',
    role: 'ADMIN',
    premiumUntil: '9999-12-31T23:59:59.999Z',
    createdAt: '2026-01-03T00:00:00.000Z',
  },
  {
    username: 'zqbravo',
    role: 'USER',
    premiumUntil: '2027-01-01T00:00:00.000Z',
    createdAt: '2025-12-31T00:00:00.000Z',
  },
  { username: 'zqEcho', role: 'ADMIN', premiumUntil: null, createdAt: '2026-01-04T00:00:00.000Z' },
  { username: 'zqfox', role: 'USER', premiumUntil: '2026-06-01T00:00:00.000Z', createdAt: '2026-01-02T00:00:00.000Z' },
];

/** What each sort compares (the repository's sort expressions). */
const SORT_VALUE: Record<UserSortKey, (member: Member) => string> = {
  username: (member) => member.username.toLowerCase(),
  email: (member) => `${member.username.toLowerCase()}@example.test`,
  role: (member) => member.role,
  premiumUntil: (member) => member.premiumUntil ?? '',
  createdAt: (member) => member.createdAt,
};

describeEachDialect('the user list’s cursor (%s)', (t) => {
  let admin: TestUser;
  const ids = new Map<Member, number>();

  async function list(query: Query): Promise<UserListResponse> {
    const response = await t.as(admin).get(urlOf('/api/users', query));
    expect(response.statusCode, response.body).toBe(200);
    return UserListResponse.parse(response.json());
  }

  function expected(sort: UserSortKey, order: 'asc' | 'desc'): number[] {
    const sign = order === 'asc' ? 1 : -1;
    const id = (member: Member) => ids.get(member) ?? 0;
    const value = SORT_VALUE[sort];
    return [...MEMBERS]
      .sort((a, b) => sign * (value(a) < value(b) ? -1 : value(a) > value(b) ? 1 : id(a) - id(b)))
      .map(id);
  }

  beforeAll(async () => {
    admin = await makeAdmin(t);
    for (const member of MEMBERS) {
      const row = await t.db
        .insertInto('users')
        .values({
          username: member.username,
          email: `${member.username.toLowerCase()}@example.test`,
          password_hash: 'x',
          role: member.role,
          premium_until: member.premiumUntil,
          created_at: member.createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.set(member, row.id);
    }
  });

  it('pages every sort both ways, ties by id, nulls first ascending, the same as one page', async () => {
    for (const sort of UserSort.options) {
      for (const order of ['asc', 'desc'] as const) {
        const whole = expected(sort, order);
        expect((await list({ q: 'zq', sort, order, limit: 500 })).users.map((u) => u.id)).toEqual(whole);
        for (const limit of [1, 2, 3]) {
          const pages = await pageThrough((cursor) => list({ q: 'zq', sort, order, limit, cursor }));
          expect(
            pages.flatMap((p) => p.users.map((u) => u.id)),
            `${sort} ${order} by ${limit}`,
          ).toEqual(whole);
          expect(pages.every((p) => p.total === MEMBERS.length && p.users.length <= limit)).toBe(true);
        }
      }
    }
  });

  it('keeps offset for older clients, and pages on from an offset page by its cursor', async () => {
    const whole = expected('role', 'asc');
    const third = await list({ q: 'zq', sort: 'role', limit: 2, offset: 2 });
    expect(third.users.map((u) => u.id)).toEqual(whole.slice(2, 4));
    expect(third.total).toBe(MEMBERS.length);
    const next = await list({ q: 'zq', sort: 'role', limit: 2, cursor: third.nextCursor ?? '' });
    expect(next.users.map((u) => u.id)).toEqual(whole.slice(4, 6));
    // Both: the offset skips rows after the cursor.
    const skipped = await list({ q: 'zq', sort: 'role', limit: 2, offset: 1, cursor: third.nextCursor ?? '' });
    expect(skipped.users.map((u) => u.id)).toEqual(whole.slice(5, 7));
    const last = await list({ q: 'zq', sort: 'role', limit: 10, offset: 5 });
    expect(last.nextCursor).toBeNull();
  });

  it('refuses with 400 a cursor of another sort, order or search', async () => {
    const first = await list({ q: 'zq', sort: 'role', order: 'desc', limit: 1 });
    const cursor = first.nextCursor ?? '';
    for (const query of [
      { q: 'zq', sort: 'email', order: 'desc', cursor },
      { q: 'zq', sort: 'role', cursor },
      { q: 'zqa', sort: 'role', order: 'desc', cursor },
      { sort: 'role', order: 'desc', cursor },
    ]) {
      expectBadCursor(await t.as(admin).get(urlOf('/api/users', query)));
    }
  });
});

import { SubsonicErrorCodes } from '@tonearm/contract';
import { describe, expect, it } from 'vitest';
import type { UserRow } from '../../db/schema.js';
import type { ApiKeysService } from './api-keys.service.js';
import type { AppPasswordsService } from './app-passwords.service.js';
import { MemoryCounterStore } from '../../counters/counter-store.js';
import { credentialLimits, SubsonicAuth } from './subsonic-auth.js';
import { SubsonicError, SubsonicRateLimited } from './subsonic.response.js';
import { SubsonicParams } from './subsonic-params.js';

const later = <T>(value: T): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), 5));
const alice = { id: 1, username: 'alice' } as UserRow;

/** How many of the calls failed with each outcome: a Subsonic error code, or 'limited'. */
async function outcomes(calls: Promise<unknown>[]): Promise<Record<string, number>> {
  const counted: Record<string, number> = {};
  for (const result of await Promise.allSettled(calls)) {
    const reason: unknown = result.status === 'rejected' ? result.reason : null;
    const key =
      reason instanceof SubsonicRateLimited ? 'limited' : reason instanceof SubsonicError ? String(reason.code) : 'ok';
    counted[key] = (counted[key] ?? 0) + 1;
  }
  return counted;
}

/** Sign-in for alice by app password ('right' is right, unless `always` says otherwise) under the given limits. */
function passwordAuth(limits: { loginFailuresPerAccount: number; authRateLimitPerMinute: number }, always?: boolean) {
  const passwords = {
    findUser: () => later(alice),
    checkPassword: (_user: UserRow, password: string) => later(always ?? password === 'right'),
  } as unknown as AppPasswordsService;
  return new SubsonicAuth(
    {} as unknown as ApiKeysService,
    passwords,
    credentialLimits(limits, new MemoryCounterStore()),
  );
}

describe('Subsonic sign-in limits, for calls sent all at once', () => {
  it('an address gets no more failed API-key attempts than its limit, however many are in flight', async () => {
    const keys = { userOfKey: () => later(null) } as unknown as ApiKeysService;
    const auth = new SubsonicAuth(
      keys,
      {} as unknown as AppPasswordsService,
      credentialLimits({ loginFailuresPerAccount: 100, authRateLimitPerMinute: 3 }, new MemoryCounterStore()),
    );
    const calls = Array.from({ length: 10 }, () =>
      auth.authenticate(new SubsonicParams({ apiKey: 'guess' }), '10.0.0.1'),
    );
    expect(await outcomes(calls)).toEqual({ [SubsonicErrorCodes.invalidApiKey]: 3, limited: 7 });
  });

  it('an account gets no more failed password attempts than its limit, from any number of addresses', async () => {
    const auth = passwordAuth({ loginFailuresPerAccount: 3, authRateLimitPerMinute: 100 }, false);
    const calls = Array.from({ length: 10 }, (_, i) =>
      auth.authenticate(new SubsonicParams({ u: 'alice', p: 'guess' }), `10.0.0.${i}`),
    );
    expect(await outcomes(calls)).toEqual({ [SubsonicErrorCodes.wrongCredentials]: 3, limited: 7 });
  });

  it('a right password after the in-flight attempts ended is still let in', async () => {
    const auth = passwordAuth({ loginFailuresPerAccount: 3, authRateLimitPerMinute: 100 });
    await outcomes([auth.authenticate(new SubsonicParams({ u: 'alice', p: 'wrong' }), '10.0.0.1')]);
    const caller = await auth.authenticate(new SubsonicParams({ u: 'alice', p: 'right' }), '10.0.0.1');
    expect(caller).toEqual({ user: alice, via: 'password' });
  });

  it('the right password clears the failures of the account; the address keeps counting only failures', async () => {
    const auth = passwordAuth({ loginFailuresPerAccount: 3, authRateLimitPerMinute: 5 });
    const call = (p: string) => auth.authenticate(new SubsonicParams({ u: 'alice', p }), '10.0.0.1');
    expect(await outcomes([call('wrong'), call('wrong')])).toEqual({ [SubsonicErrorCodes.wrongCredentials]: 2 });
    for (let i = 0; i < 3; i += 1) expect(await outcomes([call('right')])).toEqual({ ok: 1 });
    // The account starts again from nothing; the address has 2 failures of its 5 left to spend.
    expect(await outcomes([call('wrong'), call('wrong'), call('wrong'), call('wrong')])).toEqual({
      [SubsonicErrorCodes.wrongCredentials]: 3,
      limited: 1,
    });
  });
});

import { sql } from 'kysely';
import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertUser } from '../../../test/factories.js';
import { SHARED_SESSION_CACHE_MS } from '../../sessions/session-store.js';
import { createApiKeysRepository } from './api-keys.repository.js';
import { ApiKeysService, hashApiKey } from './api-keys.service.js';

describeEachDialect('Subsonic API keys on %s', { uses: 'database' }, (t) => {
  it('answers a key from memory until this process revokes it, and another’s revocation within the cache time', async () => {
    const user = await insertUser(t);
    const keys = new ApiKeysService(createApiKeysRepository(t.db));
    const owner = { id: user.id, role: 'USER' as const };
    const first = await keys.create(owner, user.id, 'phone');
    const now = new Date();
    expect((await keys.userOfKey(first.key, now))?.id).toBe(user.id);
    // Revoked here: refused at the next call.
    await keys.revoke(owner, user.id, first.id);
    expect(await keys.userOfKey(first.key, now)).toBeNull();
    // Revoked behind this process's back (standing for another instance): refused once the cache time is over.
    const second = await keys.create(owner, user.id, 'tablet');
    expect((await keys.userOfKey(second.key, now))?.id).toBe(user.id);
    await sql`delete from subsonic_api_keys where key_hash = ${hashApiKey(second.key)}`.execute(t.db);
    expect((await keys.userOfKey(second.key, now))?.id).toBe(user.id);
    expect(await keys.userOfKey(second.key, new Date(now.getTime() + SHARED_SESSION_CACHE_MS))).toBeNull();
  });
});

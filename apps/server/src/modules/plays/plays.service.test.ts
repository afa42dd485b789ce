import { expect, it } from 'vitest';
import { describeEachDialect } from '../../../test/dialects.js';
import { insertSongs, insertUser } from '../../../test/factories.js';
import { createPlaysRepository } from './plays.repository.js';
import { PlaysService } from './plays.service.js';

/** An observer of plays (scrobbling out) that fails never fails the listen or the play: it is stored, and told. */
describeEachDialect('plays observers (%s)', { uses: 'database' }, (t) => {
  it('stores a listen whose observer fails, and logs the failure', async () => {
    const warnings: string[] = [];
    const plays = new PlaysService(createPlaysRepository(t.db), undefined, (message) => warnings.push(message));
    plays.onListen(() => Promise.reject(new Error('queue down')));
    plays.onStart(() => Promise.reject(new Error('queue still down')));
    const user = await insertUser(t);
    const [song] = await insertSongs(t, 1);
    await plays.counted(user, song?.id ?? 0, new Date('2026-11-28T10:00:00Z'), 1000, 'subsonic', 'App');
    await plays.started(user.id, song?.id ?? 0);
    const stored = await t.db.selectFrom('listens').select('song_id').where('user_id', '=', user.id).execute();
    expect(stored).toEqual([{ song_id: song?.id }]);
    expect(warnings).toEqual([
      'Plays: an observer of a listen failed: Error: queue down',
      'Plays: an observer of a start failed: Error: queue still down',
    ]);
  });
});

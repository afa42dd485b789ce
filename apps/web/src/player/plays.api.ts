import { send } from '../lib/api-client.js';

/** Counts a play on the server (listening history); a failure must never interrupt the music. */
export async function recordPlay(songId: number): Promise<void> {
  await send('/api/plays', 'POST', { songId });
}

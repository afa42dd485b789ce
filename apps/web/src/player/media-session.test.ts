import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSong } from '../test/fixtures.js';
import { createAudioDeck } from './audio-deck.js';
import { artworkFor, connectMediaSession, metadataFor } from './media-session.js';
import { createPlayerRuntime } from './player-runtime.js';

/** jsdom has no Media Session: a recording stand-in with the same surface. */
class FakeMediaSession {
  metadata: unknown = null;
  playbackState = 'none';
  handlers = new Map<string, ((details: Record<string, unknown>) => void) | null>();
  positions: unknown[] = [];
  setActionHandler(action: string, handler: ((details: Record<string, unknown>) => void) | null) {
    this.handlers.set(action, handler);
  }
  setPositionState(state: unknown) {
    this.positions.push(state);
  }
  run(action: string, details: Record<string, unknown> = {}) {
    this.handlers.get(action)?.({ action, ...details });
  }
}

describe('Media Session', () => {
  let session: FakeMediaSession;
  beforeEach(() => {
    session = new FakeMediaSession();
    Object.defineProperty(navigator, 'mediaSession', { configurable: true, value: session });
    vi.stubGlobal(
      'MediaMetadata',
      class {
        constructor(readonly init: MediaMetadataInit) {}
      },
    );
  });
  afterEach(() => {
    Reflect.deleteProperty(navigator, 'mediaSession');
  });

  it('describes a song with absolute artwork URLs in the sizes the server makes', () => {
    const song = makeSong(4, { name: 'Night Ferry', artistName: 'Harbor Lights', imgLink: '/media/images/k.jpg' });
    expect(metadataFor(song, 'https://music.example.org')).toEqual({
      title: 'Night Ferry',
      artist: 'Harbor Lights',
      album: 'Pop',
      artwork: [
        { src: 'https://music.example.org/media/images/k.jpg?w=300', sizes: '300x300', type: 'image/webp' },
        { src: 'https://music.example.org/media/images/k.jpg?w=640', sizes: '640x640', type: 'image/webp' },
      ],
    });
    expect(artworkFor(makeSong(1, { imgLink: '/welcome-cover.svg' }), 'https://a.test')).toEqual([
      { src: 'https://a.test/welcome-cover.svg' },
    ]);
  });

  it('shows the current song and state, and its actions drive the player', () => {
    const runtime = createPlayerRuntime(createAudioDeck());
    const disconnect = connectMediaSession(runtime);
    const songs = [makeSong(1, { name: 'First' }), makeSong(2, { name: 'Second' })];
    runtime.controls.playList(songs, 0);
    expect((session.metadata as { init: MediaMetadataInit }).init.title).toBe('First');
    expect(session.playbackState).toBe('playing');

    session.run('pause');
    expect(runtime.store.getState().playing).toBe(false);
    expect(session.playbackState).toBe('paused');
    session.run('play');
    expect(runtime.store.getState().playing).toBe(true);
    session.run('nexttrack');
    expect((session.metadata as { init: MediaMetadataInit }).init.title).toBe('Second');
    session.run('previoustrack');
    expect(runtime.store.getState().current.name).toBe('First');
    session.run('seekto', { seekTime: 30 });
    expect(runtime.audio.currentTime).toBe(30);
    session.run('seekbackward');
    expect(runtime.audio.currentTime).toBe(20);

    runtime.clock.dispatch({ type: 'duration', duration: 180 });
    runtime.clock.dispatch({ type: 'time', position: 31.2 });
    expect(session.positions.at(-1)).toEqual({ duration: 180, position: 31.2, playbackRate: 1 });

    disconnect();
    expect(session.handlers.get('play')).toBeNull();
    expect(session.metadata).toBeNull();
  });
});

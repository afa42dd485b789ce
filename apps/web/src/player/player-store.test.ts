import { describe, expect, it, vi } from 'vitest';
import { makeSong } from '../test/fixtures.js';
import { connectAudioEngine, createPlayerRuntime, trackRecentSongs } from './player-runtime.js';
import {
  clockReducer,
  createPlayerStore,
  initialPlayerState,
  playerReducer,
  type PlayerState,
} from './player-store.js';
import { WELCOME_SONG } from './welcome-song.js';

const songs = [makeSong(1), makeSong(2), makeSong(3)];

function playing(index: number): PlayerState {
  return playerReducer(initialPlayerState, { type: 'playList', songs, index });
}

describe('playerReducer', () => {
  it('starts with the welcome song of SPEC §3, paused', () => {
    expect(initialPlayerState.current).toBe(WELCOME_SONG);
    expect(WELCOME_SONG).toMatchObject({ id: 0, genre: 'Melody', name: 'Welcome', artistName: 'Tonearm' });
    expect(WELCOME_SONG.link).not.toBe('');
    expect(WELCOME_SONG.imgLink).not.toBe('');
    expect(initialPlayerState.playing).toBe(false);
  });

  it('choosing a song sets the list, the index and the current song and marks it playing', () => {
    const state = playing(1);
    expect(state.queue.map((s) => s.id)).toEqual([1, 2, 3]);
    expect(state.index).toBe(1);
    expect(state.current.id).toBe(2);
    expect(state.playing).toBe(true);
    expect(state.trackKey).toBe(initialPlayerState.trackKey + 1);
  });

  it('toggles between playing and paused', () => {
    const paused = playerReducer(playing(0), { type: 'toggle' });
    expect(paused.playing).toBe(false);
    expect(playerReducer(paused, { type: 'toggle' }).playing).toBe(true);
  });

  it('next and previous walk the list; next wraps at the end, previous stops at the start', () => {
    expect(playerReducer(playing(0), { type: 'next' }).current.id).toBe(2);
    expect(playerReducer(playing(2), { type: 'next' }).current.id).toBe(1);
    expect(playerReducer(playing(2), { type: 'previous' }).current.id).toBe(2);
    expect(playerReducer(playing(0), { type: 'previous' }).current.id).toBe(1);
  });

  it('moves on when a song ends and stops after the last one', () => {
    const next = playerReducer(playing(1), { type: 'ended' });
    expect(next.current.id).toBe(3);
    expect(next.playing).toBe(true);
    const done = playerReducer(playing(2), { type: 'ended' });
    expect(done.current.id).toBe(3);
    expect(done.playing).toBe(false);
  });

  it('clamps the volume and un-mutes when the volume is raised', () => {
    const muted = playerReducer(initialPlayerState, { type: 'toggleMute' });
    expect(muted.muted).toBe(true);
    const louder = playerReducer(muted, { type: 'setVolume', volume: 1.7 });
    expect(louder.volume).toBe(1);
    expect(louder.muted).toBe(false);
    expect(playerReducer(initialPlayerState, { type: 'setVolume', volume: -1 }).volume).toBe(0);
  });

  it('reset returns to the welcome song, paused, keeping the volume', () => {
    const quiet = playerReducer(playing(1), { type: 'setVolume', volume: 0.3 });
    const reset = playerReducer(quiet, { type: 'reset' });
    expect(reset.current).toBe(WELCOME_SONG);
    expect(reset.playing).toBe(false);
    expect(reset.volume).toBe(0.3);
  });
});

describe('clockReducer', () => {
  it('treats an unknown duration as 0 and keeps the same object for no change', () => {
    const clock = { position: 0, duration: 0 };
    expect(clockReducer(clock, { type: 'duration', duration: Number.NaN })).toBe(clock);
    expect(clockReducer(clock, { type: 'time', position: 3 })).toEqual({ position: 3, duration: 0 });
  });
});

describe('trackRecentSongs', () => {
  it('remembers every song that starts, but not the welcome song', () => {
    const store = createPlayerStore();
    const remember = vi.fn();
    trackRecentSongs(store, remember);
    store.dispatch({ type: 'playList', songs, index: 0 });
    store.dispatch({ type: 'toggle' });
    store.dispatch({ type: 'next' });
    store.dispatch({ type: 'reset' });
    expect(remember.mock.calls.map(([song]) => (song as { id: number }).id)).toEqual([1, 2]);
  });
});

describe('audio engine', () => {
  it('loads the chosen song into the one <audio> element and follows its events', () => {
    const audio = document.createElement('audio');
    const play = vi.spyOn(audio, 'play');
    const runtime = createPlayerRuntime(audio);
    const disconnect = connectAudioEngine(runtime, vi.fn());
    expect(audio.getAttribute('src')).toBe(WELCOME_SONG.link);
    expect(play).not.toHaveBeenCalled();

    runtime.controls.playList(songs, 0);
    expect(audio.getAttribute('src')).toBe('/media/audio/1.mp3');
    expect(play).toHaveBeenCalledTimes(1);
    expect(runtime.clock.getState().duration).toBe(180);

    runtime.controls.setVolume(0.25);
    expect(audio.volume).toBe(0.25);
    runtime.controls.toggleMute();
    expect(audio.muted).toBe(true);

    audio.dispatchEvent(new Event('ended'));
    expect(runtime.store.getState().current.id).toBe(2);
    expect(audio.getAttribute('src')).toBe('/media/audio/2.mp3');

    runtime.controls.seek(42);
    expect(audio.currentTime).toBe(42);
    expect(runtime.clock.getState().position).toBe(42);
    disconnect();
  });

  it('reports a song that cannot be played and pauses', () => {
    const audio = document.createElement('audio');
    const runtime = createPlayerRuntime(audio);
    const onError = vi.fn();
    connectAudioEngine(runtime, onError);
    runtime.controls.playList(songs, 2);
    audio.dispatchEvent(new Event('error'));
    expect(onError).toHaveBeenCalledWith(songs[2]);
    expect(runtime.store.getState().playing).toBe(false);
  });
});

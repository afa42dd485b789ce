import { afterEach, describe, expect, it, vi } from 'vitest';
import { writeDataSaver } from '../lib/data-saver.js';
import { makeSong } from '../test/fixtures.js';
import { createAudioDeck } from './audio-deck.js';
import { connectAudioEngine, createPlayerRuntime } from './player-runtime.js';

/** A deck whose elements play exactly these MIME types (jsdom's canPlayType plays none). */
function deckPlaying(...types: string[]) {
  const deck = createAudioDeck();
  for (const element of deck.elements) {
    vi.spyOn(element, 'play').mockResolvedValue();
    vi.spyOn(element, 'canPlayType').mockImplementation((mime) => (types.includes(mime) ? 'maybe' : ''));
  }
  return deck;
}

function play(deck: ReturnType<typeof createAudioDeck>, link: string) {
  const runtime = createPlayerRuntime(deck);
  const disconnect = connectAudioEngine(runtime, vi.fn());
  runtime.controls.playList([makeSong(1, { link })], 0);
  disconnect();
  return deck.active.getAttribute('src');
}

const EVERY_TYPE = ['audio/mpeg', 'audio/flac', 'audio/ogg; codecs=opus'];

describe('what the player streams', () => {
  afterEach(() => {
    localStorage.clear();
  });

  it('is the original when the browser plays it', () => {
    expect(play(deckPlaying(...EVERY_TYPE), '/media/audio/a.flac')).toBe('/media/audio/a.flac');
  });

  it('is a conversion when the browser cannot play the original', () => {
    expect(play(deckPlaying('audio/mpeg', 'audio/ogg; codecs=opus'), '/media/audio/a.flac')).toBe(
      '/media/audio/a.flac?format=opus&bitrate=192',
    );
  });

  it('is Opus at 128 kbit/s with the data saver on', () => {
    writeDataSaver(true);
    expect(play(deckPlaying(...EVERY_TYPE), '/media/audio/a.mp3')).toBe('/media/audio/a.mp3?format=opus&bitrate=128');
    writeDataSaver(false);
    expect(play(deckPlaying(...EVERY_TYPE), '/media/audio/a.mp3')).toBe('/media/audio/a.mp3');
  });
});

describe('the volume a song plays at', () => {
  it('is the chosen volume scaled by the song’s ReplayGain, the next song’s element by its own', () => {
    const deck = deckPlaying(...EVERY_TYPE);
    const runtime = createPlayerRuntime(deck);
    const disconnect = connectAudioEngine(runtime, vi.fn());
    runtime.controls.setVolume(0.8);
    runtime.controls.playList(
      [
        makeSong(1, { link: '/media/audio/loud.mp3', replayGainDb: -6.02, replayGainPeak: 0.9 }),
        makeSong(2, { link: '/media/audio/plain.mp3' }),
      ],
      0,
    );
    const [first, second] = deck.elements;
    const standby = first === deck.active ? second : first;
    expect(deck.active.volume).toBeCloseTo(0.4, 2);
    expect(standby.volume).toBeCloseTo(0.8, 5);
    disconnect();
  });
});

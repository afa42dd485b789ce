import { describe, expect, it } from 'vitest';
import { audioMimeOf, COMPATIBLE_BITRATE, streamLink } from './stream-link.js';

const FLAC = '/media/audio/abc.flac';
const MP3 = '/media/audio/abc.mp3';

/** A browser that plays exactly these types. */
const plays =
  (...types: string[]) =>
  (mime: string) =>
    types.includes(mime);
const everything = () => true;

describe('streamLink', () => {
  it('streams the original when the browser plays it and data saver is off', () => {
    expect(streamLink(MP3, { dataSaver: false, canPlay: everything })).toBe(MP3);
    expect(streamLink(FLAC, { dataSaver: false, canPlay: plays('audio/flac', 'audio/mpeg') })).toBe(FLAC);
  });

  it('asks for Opus (else MP3) when the browser cannot play the original', () => {
    const opusToo = plays('audio/mpeg', 'audio/ogg; codecs=opus');
    expect(streamLink(FLAC, { dataSaver: false, canPlay: opusToo })).toBe(
      `${FLAC}?format=opus&bitrate=${COMPATIBLE_BITRATE}`,
    );
    expect(streamLink(FLAC, { dataSaver: false, canPlay: plays('audio/mpeg') })).toBe(
      `${FLAC}?format=mp3&bitrate=${COMPATIBLE_BITRATE}`,
    );
  });

  it('keeps the original when the browser could not play a conversion either', () => {
    expect(streamLink(FLAC, { dataSaver: false, canPlay: plays() })).toBe(FLAC);
    expect(streamLink(FLAC, { dataSaver: true, canPlay: plays() })).toBe(FLAC);
  });

  it('streams Opus at 128 kbit/s with data saver on, MP3 where Opus does not play', () => {
    expect(streamLink(MP3, { dataSaver: true, canPlay: everything })).toBe(`${MP3}?format=opus&bitrate=128`);
    expect(streamLink(MP3, { dataSaver: true, canPlay: plays('audio/mpeg') })).toBe(`${MP3}?format=mp3&bitrate=128`);
  });

  it('leaves links that are no stored audio alone (the bundled welcome song, a link with a query)', () => {
    expect(streamLink('/assets/welcome.mp3', { dataSaver: true, canPlay: everything })).toBe('/assets/welcome.mp3');
    const converted = `${FLAC}?format=opus&bitrate=64`;
    expect(streamLink(converted, { dataSaver: true, canPlay: everything })).toBe(converted);
  });
});

describe('audioMimeOf', () => {
  it('names the type of a stored audio key by its suffix', () => {
    expect(audioMimeOf(FLAC)).toBe('audio/flac');
    expect(audioMimeOf('/media/audio/x.m4a')).toBe('audio/mp4');
    expect(audioMimeOf('/media/audio/x.opus')).toBe('audio/ogg; codecs=opus');
    expect(audioMimeOf('/media/audio/x.bin')).toBeNull();
  });

  it('names the codec when the import read it: an .m4a may be AAC or ALAC', () => {
    expect(audioMimeOf('/media/audio/x.m4a', 'alac')).toBe('audio/mp4; codecs=alac');
    expect(audioMimeOf('/media/audio/x.m4a', 'aac')).toBe('audio/mp4; codecs=mp4a.40.2');
    expect(audioMimeOf('/media/audio/x.m4a', 'something new')).toBe('audio/mp4');
    const noAlac = (mime: string) => mime !== 'audio/mp4; codecs=alac';
    expect(streamLink('/media/audio/x.m4a', { dataSaver: false, canPlay: noAlac }, 'alac')).toBe(
      `/media/audio/x.m4a?format=opus&bitrate=${COMPATIBLE_BITRATE}`,
    );
    expect(streamLink('/media/audio/x.m4a', { dataSaver: false, canPlay: noAlac }, 'aac')).toBe('/media/audio/x.m4a');
  });
});

import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIO_FORMATS,
  encodeAudio,
  extensionOf,
  requireFfmpeg,
  type AudioFormat,
  type AudioTags,
} from '../../../test/audio-formats.js';
import {
  flacWithComments,
  id3v2Tag,
  m4aWithFreeform,
  mp3WithId3v2,
  oggWithComments,
  type Comments,
  type Id3Frame,
} from '../../../test/tag-writers.js';
import { NO_TAGS, readTags, type Contributor, type FileTags, type ReadTagsOptions } from './read-tags.js';

/**
 * Real files: ffmpeg encodes each, and writes the tags it can; what it cannot (ID3v2.4 NUL-separated values, TIPL,
 * TMCL, UFID, repeated Vorbis comments, MP4 freeform atoms) test/tag-writers.ts puts into ffmpeg's files.
 */
let dir: string;
let files = 0;

beforeAll(async () => {
  requireFfmpeg();
  dir = await mkdtemp(path.join(tmpdir(), 'tonearm-read-tags-'));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function encoded(format: AudioFormat, tags: AudioTags): Promise<string> {
  const file = path.join(dir, `${files++}.${extensionOf(format)}`);
  await encodeAudio(file, format, { tags, seconds: 1 });
  return file;
}

/** A file of `format` with the tags ffmpeg writes, read back. */
async function ffmpegTagged(format: AudioFormat, tags: AudioTags, options?: ReadTagsOptions): Promise<FileTags> {
  return readTags(await encoded(format, tags), options);
}

/** ffmpeg's file with its tag bytes rewritten by `retag`, read back. */
async function retagged(format: AudioFormat, retag: (bytes: Buffer) => Buffer, tags: AudioTags = {}) {
  const bytes = await readFile(await encoded(format, tags));
  const file = path.join(dir, `${files++}.${extensionOf(format)}`);
  await writeFile(file, retag(bytes));
  return readTags(file);
}

const id3 = (version: 3 | 4, frames: Id3Frame[]) =>
  retagged('mp3', (mp3) => mp3WithId3v2(mp3, id3v2Tag(version, frames)));

const VORBIS_FORMATS = ['flac', 'ogg', 'opus'] as const;

const vorbis = (format: (typeof VORBIS_FORMATS)[number], comments: Comments) =>
  retagged(format, (bytes) =>
    format === 'flac' ? flacWithComments(bytes, comments) : oggWithComments(bytes, comments),
  );

const m4a = (tags: AudioTags, atoms: Record<string, string[]>) =>
  retagged('aac', (bytes) => m4aWithFreeform(bytes, atoms), tags);

const text = (id: string, ...values: string[]): Id3Frame => ({ id, values });
const txxx = (description: string, ...values: string[]): Id3Frame => ({ txxx: description, values });

/** A UUID of one repeated hex digit. */
const uuid = (digit: string) => [8, 4, 4, 4, 12].map((length) => digit.repeat(length)).join('-');

const credit = (role: Contributor['role'], name: string, subRole: string | null = null): Contributor => ({
  role,
  subRole,
  name,
});

/** What a file without the new tags answers for the new fields. */
const NOTHING_NEW = {
  contributors: [],
  musicBrainz: NO_TAGS.musicBrainz,
  originalDate: null,
  releaseTypes: [],
  compilation: false,
};

/** WAV tags are RIFF INFO: no album artist and no disc number (the album artist is then the artist). */
const albumArtistIn = (format: AudioFormat, albumArtist: string, artist: string) =>
  format === 'wav' ? artist : albumArtist;

describe('the fields the import already reads', () => {
  it.each(AUDIO_FORMATS)('%s: title, artist, album, numbers, year and genre as before', async (format) => {
    const albumArtist = albumArtistIn(format, 'The Album Band', 'The Testers');
    const tags = await ffmpegTagged(format, {
      title: 'Track 3',
      artist: 'The Testers',
      album: 'Seven Formats',
      albumArtist: 'The Album Band',
      track: '3/7',
      disc: '1/2',
      date: '2011',
      genre: 'Shoegaze',
    });
    expect(tags).toMatchObject({
      title: 'Track 3',
      artist: 'The Testers',
      album: 'Seven Formats',
      albumArtist,
      trackNumber: 3,
      discNumber: format === 'wav' ? null : 1,
      year: 2011,
      genre: 'Shoegaze',
      untagged: false,
      artists: ['The Testers'],
      albumArtists: [albumArtist],
      displayArtist: 'The Testers',
      ...NOTHING_NEW,
    });
  });

  it('takes the artist for the album artist and the other way round, as before', async () => {
    expect(await ffmpegTagged('flac', { artist: 'Only Artist' })).toMatchObject({
      artist: 'Only Artist',
      albumArtist: 'Only Artist',
      artists: ['Only Artist'],
      albumArtists: ['Only Artist'],
    });
    expect(await ffmpegTagged('mp3', { albumArtist: 'Only Album; Artist' })).toMatchObject({
      artist: 'Only Album',
      albumArtist: 'Only Album',
      artists: ['Only Album', 'Artist'],
      albumArtists: ['Only Album', 'Artist'],
      displayArtist: null,
    });
  });

  it('answers no artists at all for an untagged file', async () => {
    expect(await ffmpegTagged('ogg', {})).toMatchObject({
      artist: null,
      albumArtist: null,
      artists: [],
      albumArtists: [],
      displayArtist: null,
      untagged: true,
      ...NOTHING_NEW,
    });
  });
});

describe('artists from one ARTIST string', () => {
  it.each(AUDIO_FORMATS)('%s: split on ";" and " feat. ", never on "/" or "&"', async (format) => {
    const tags = await ffmpegTagged(format, { artist: 'Simon & Garfunkel feat. AC/DC; Main', albumArtist: 'AC/DC' });
    expect(tags).toMatchObject({
      artist: 'Simon & Garfunkel',
      artists: ['Simon & Garfunkel', 'AC/DC', 'Main'],
      displayArtist: 'Simon & Garfunkel feat. AC/DC; Main',
      albumArtist: albumArtistIn(format, 'AC/DC', 'Simon & Garfunkel'),
    });
    expect(tags.albumArtists).toEqual(format === 'wav' ? tags.artists : ['AC/DC']);
  });

  it('splits on the separators it is given instead', async () => {
    const options = { separators: [' x ', ' & ', '/'] };
    for (const format of ['mp3', 'flac', 'aac'] as const) {
      const tags = await ffmpegTagged(format, { artist: 'A x B; C & D/E' }, options);
      expect(tags.artists).toEqual(['A', 'B; C & D/E']);
      expect(tags.displayArtist).toBe('A x B; C & D/E');
    }
  });

  it('reads ID3v2.4 values separated by NUL as several artists', async () => {
    const tags = await id3(4, [text('TPE1', 'AC/DC', 'Guest'), text('TPE2', 'Band', 'Other Band')]);
    expect(tags).toMatchObject({
      artist: 'AC/DC',
      artists: ['AC/DC', 'Guest'],
      displayArtist: 'AC/DC; Guest',
      albumArtist: 'Band',
      albumArtists: ['Band', 'Other Band'],
    });
  });

  it('reads repeated Vorbis ARTIST comments as several artists', async () => {
    for (const format of VORBIS_FORMATS) {
      const tags = await vorbis(format, [
        ['ARTIST', 'AC/DC'],
        ['ARTIST', 'Guest'],
      ]);
      expect(tags).toMatchObject({ artists: ['AC/DC', 'Guest'], displayArtist: 'AC/DC; Guest' });
    }
  });
});

describe('the ARTISTS and ALBUMARTISTS tags win over splitting', () => {
  it('ID3v2.4: TXXX:ARTISTS and TXXX:ALBUMARTISTS with NUL-separated values', async () => {
    const tags = await id3(4, [
      text('TPE1', 'Main feat. Guest & Friend'),
      txxx('ARTISTS', 'Main', 'Guest & Friend', 'Third'),
      text('TPE2', 'Band'),
      txxx('ALBUMARTISTS', 'Band', 'AC/DC'),
    ]);
    expect(tags).toMatchObject({
      artist: 'Main',
      artists: ['Main', 'Guest & Friend', 'Third'],
      displayArtist: 'Main feat. Guest & Friend',
      albumArtist: 'Band',
      albumArtists: ['Band', 'AC/DC'],
    });
  });

  it('ID3v2.3: TXXX:ARTISTS as ffmpeg writes it, with "/" kept inside names', async () => {
    const tags = await ffmpegTagged('mp3', { artist: 'AC/DC feat. Guest', extra: { ARTISTS: 'AC/DC;Guest;Third' } });
    expect(tags).toMatchObject({
      artist: 'AC/DC',
      artists: ['AC/DC', 'Guest', 'Third'],
      displayArtist: 'AC/DC feat. Guest',
    });
  });

  it('ID3v2.3: values separated by NUL (not the standard) stay apart', async () => {
    const tags = await id3(3, [text('TPE1', 'AC/DC', 'Guest'), txxx('Artists', 'AC/DC', 'Guest', 'Third')]);
    expect(tags).toMatchObject({ artists: ['AC/DC', 'Guest', 'Third'], displayArtist: 'AC/DC; Guest' });
  });

  it.each(VORBIS_FORMATS)('%s: repeated ARTISTS and ALBUMARTISTS comments', async (format) => {
    const tags = await vorbis(format, [
      ['ARTIST', 'Main feat. Guest'],
      ['ARTISTS', 'Main'],
      ['artists', 'Guest'],
      ['ARTISTS', 'Third'],
      ['ALBUMARTIST', 'Band; Other'],
      ['ALBUMARTISTS', 'Band'],
      ['ALBUMARTISTS', 'AC/DC'],
    ]);
    expect(tags).toMatchObject({
      artist: 'Main',
      artists: ['Main', 'Guest', 'Third'],
      displayArtist: 'Main feat. Guest',
      albumArtist: 'Band',
      albumArtists: ['Band', 'AC/DC'],
    });
  });

  it.each(VORBIS_FORMATS)('%s: an ARTISTS comment joined by ffmpeg ("a;b") is split', async (format) => {
    const tags = await ffmpegTagged(format, { artist: 'Main feat. Guest', extra: { ARTISTS: 'Main;Guest & Co' } });
    expect(tags.artists).toEqual(['Main', 'Guest & Co']);
  });

  it('M4A: ----:com.apple.iTunes:ARTISTS and ALBUMARTISTS with one data atom per name', async () => {
    const tags = await m4a(
      { artist: 'Main feat. Guest', albumArtist: 'Band' },
      { ARTISTS: ['Main', 'Guest', 'Third'], ALBUMARTISTS: ['Band', 'AC/DC'] },
    );
    expect(tags).toMatchObject({
      artist: 'Main',
      artists: ['Main', 'Guest', 'Third'],
      displayArtist: 'Main feat. Guest',
      albumArtist: 'Band',
      albumArtists: ['Band', 'AC/DC'],
    });
  });
});

describe('contributors', () => {
  it('ID3v2.4: TCOM, TEXT, TPE3, TPE4, TIPL roles and TMCL instruments', async () => {
    const tags = await id3(4, [
      text('TPE1', 'Main'),
      text('TCOM', 'Comp A', 'Comp B'),
      text('TEXT', 'Lyr'),
      text('TPE3', 'Cond'),
      text('TPE4', 'Rmx'),
      text('TIPL', 'producer', 'Prod', 'mix', 'Mixer Person', 'DJ-mix', 'The DJ', 'engineer', 'Eng', 'arranger', 'Arr'),
      text('TIPL', 'photographer', 'Pic'),
      text('TMCL', 'guitar', 'Joe', 'vocals', 'Ann; Bea', 'performer', 'Cy'),
    ]);
    expect(tags.contributors).toEqual([
      credit('composer', 'Comp A'),
      credit('composer', 'Comp B'),
      credit('lyricist', 'Lyr'),
      credit('arranger', 'Arr'),
      credit('conductor', 'Cond'),
      credit('performer', 'Joe', 'guitar'),
      credit('performer', 'Ann', 'vocals'),
      credit('performer', 'Bea', 'vocals'),
      credit('performer', 'Cy'),
      credit('producer', 'Prod'),
      credit('remixer', 'Rmx'),
      credit('mixer', 'Mixer Person'),
      credit('engineer', 'Eng'),
      credit('djmixer', 'The DJ'),
    ]);
  });

  it('ID3v2.4: a TIPL name with a comma in it stays one name', async () => {
    const tags = await id3(4, [text('TIPL', 'producer', 'Earth, Wind & Fire', 'producer', 'Second')]);
    expect(tags.contributors).toEqual([credit('producer', 'Earth, Wind & Fire'), credit('producer', 'Second')]);
  });

  it('ID3v2.3: IPLS holds both roles and instruments; TCOM is split on the separators only', async () => {
    const tags = await id3(3, [text('IPLS', 'producer', 'Prod', 'guitar', 'Joe'), text('TCOM', 'Comp A; AC/DC')]);
    expect(tags.contributors).toEqual([
      credit('composer', 'Comp A'),
      credit('composer', 'AC/DC'),
      credit('performer', 'Joe', 'guitar'),
      credit('producer', 'Prod'),
    ]);
  });

  it.each(VORBIS_FORMATS)('%s: role comments and PERFORMER=Name (instrument)', async (format) => {
    const tags = await vorbis(format, [
      ['COMPOSER', 'Comp A'],
      ['COMPOSER', 'Comp B'],
      ['LYRICIST', 'Lyr'],
      ['CONDUCTOR', 'Cond'],
      ['ARRANGER', 'Arr'],
      ['PRODUCER', 'Prod'],
      ['REMIXER', 'Rmx'],
      ['MIXER', 'Mixer Person'],
      ['ENGINEER', 'Eng'],
      ['DJMIXER', 'The DJ'],
      ['PERFORMER', 'Joe (guitar)'],
      ['PERFORMER', 'Ann (vocals); Bea'],
      ['PERFORMER', 'joe (GUITAR)'],
    ]);
    expect(tags.contributors).toEqual([
      credit('composer', 'Comp A'),
      credit('composer', 'Comp B'),
      credit('lyricist', 'Lyr'),
      credit('arranger', 'Arr'),
      credit('conductor', 'Cond'),
      credit('performer', 'Joe', 'guitar'),
      credit('performer', 'Ann', 'vocals'),
      credit('performer', 'Bea'),
      credit('producer', 'Prod'),
      credit('remixer', 'Rmx'),
      credit('mixer', 'Mixer Person'),
      credit('engineer', 'Eng'),
      credit('djmixer', 'The DJ'),
    ]);
  });

  it('FLAC as ffmpeg writes it: the composer and performers joined with ";"', async () => {
    const tags = await ffmpegTagged('flac', { extra: { composer: 'Comp A;Comp B', PERFORMER: 'Joe (guitar);Ann' } });
    expect(tags.contributors).toEqual([
      credit('composer', 'Comp A'),
      credit('composer', 'Comp B'),
      credit('performer', 'Joe', 'guitar'),
      credit('performer', 'Ann'),
    ]);
  });

  it('M4A: ©wrt and the freeform role atoms', async () => {
    const tags = await m4a(
      { extra: { composer: 'Comp A feat. Comp B' } },
      {
        LYRICIST: ['Lyr'],
        CONDUCTOR: ['Cond'],
        ARRANGER: ['Arr'],
        PRODUCER: ['Prod', 'Prod Two'],
        REMIXER: ['Rmx'],
        MIXER: ['Mixer Person'],
        ENGINEER: ['Eng'],
        DJMIXER: ['The DJ'],
      },
    );
    expect(tags.contributors).toEqual([
      credit('composer', 'Comp A'),
      credit('composer', 'Comp B'),
      credit('lyricist', 'Lyr'),
      credit('arranger', 'Arr'),
      credit('conductor', 'Cond'),
      credit('producer', 'Prod'),
      credit('producer', 'Prod Two'),
      credit('remixer', 'Rmx'),
      credit('mixer', 'Mixer Person'),
      credit('engineer', 'Eng'),
      credit('djmixer', 'The DJ'),
    ]);
  });
});

describe('MusicBrainz ids, original date, release types and compilation', () => {
  const ids = {
    recordingId: uuid('a'),
    trackId: uuid('b'),
    releaseId: uuid('c'),
    releaseGroupId: uuid('d'),
    artistIds: [uuid('e'), uuid('f')],
    albumArtistIds: [uuid('1')],
  };

  it('ID3v2.4: UFID and Picard TXXX frames, TDOR, the album type and TCMP', async () => {
    const tags = await id3(4, [
      { ufid: 'http://musicbrainz.org', identifier: uuid('A') },
      txxx('MusicBrainz Release Track Id', uuid('B')),
      txxx('MusicBrainz Album Id', uuid('c')),
      txxx('MusicBrainz Release Group Id', uuid('d')),
      txxx('MusicBrainz Artist Id', uuid('e'), uuid('f')),
      txxx('MusicBrainz Album Artist Id', uuid('1'), 'not-a-uuid'),
      text('TDOR', '1999-05'),
      txxx('MusicBrainz Album Type', 'album', 'live'),
      text('TCMP', '1'),
    ]);
    expect(tags).toMatchObject({
      musicBrainz: ids,
      originalDate: '1999-05',
      releaseTypes: ['album', 'live'],
      compilation: true,
    });
  });

  it('ID3v2.3: lists joined with "/", TORY, and no compilation flag', async () => {
    const tags = await id3(3, [
      txxx('MusicBrainz Artist Id', `${uuid('e')}/${uuid('f')}`),
      txxx('MusicBrainz Album Id', 'C'.repeat(36)),
      text('TORY', '1998'),
      txxx('MusicBrainz Album Type', 'album/Compilation'),
      text('TPE2', 'The Band'),
    ]);
    expect(tags).toMatchObject({
      musicBrainz: { ...NO_TAGS.musicBrainz, artistIds: [uuid('e'), uuid('f')] },
      originalDate: '1998',
      releaseTypes: ['album', 'compilation'],
      compilation: false,
    });
  });

  it('ID3v2.3: the full original date from TXXX:ORIGINALDATE, and the compilation frame ffmpeg writes', async () => {
    const tags = await ffmpegTagged('mp3', { extra: { ORIGINALDATE: '1998-02-03', compilation: '1' } });
    expect(tags).toMatchObject({ originalDate: '1998-02-03', compilation: true });
  });

  it.each(VORBIS_FORMATS)('%s: MUSICBRAINZ_* comments, ORIGINALYEAR, RELEASETYPE and COMPILATION', async (format) => {
    const tags = await vorbis(format, [
      ['MUSICBRAINZ_TRACKID', uuid('a')],
      ['MUSICBRAINZ_RELEASETRACKID', uuid('b')],
      ['MUSICBRAINZ_ALBUMID', uuid('C')],
      ['MUSICBRAINZ_RELEASEGROUPID', uuid('d')],
      ['MUSICBRAINZ_ARTISTID', uuid('e')],
      ['MUSICBRAINZ_ARTISTID', uuid('f')],
      ['MUSICBRAINZ_ALBUMARTISTID', uuid('1')],
      ['ORIGINALDATE', '1977-02-30'],
      ['ORIGINALYEAR', '1977'],
      ['RELEASETYPE', 'Album'],
      ['RELEASETYPE', 'Live'],
      ['COMPILATION', '1'],
    ]);
    expect(tags).toMatchObject({
      musicBrainz: ids,
      originalDate: '1977',
      releaseTypes: ['album', 'live'],
      compilation: true,
    });
  });

  it('M4A: the freeform MusicBrainz atoms, ORIGINALDATE, and cpil', async () => {
    const tags = await m4a(
      { extra: { compilation: '1' } },
      {
        'MusicBrainz Track Id': [uuid('a')],
        'MusicBrainz Release Track Id': [uuid('b')],
        'MusicBrainz Album Id': [uuid('c')],
        'MusicBrainz Release Group Id': [uuid('d')],
        'MusicBrainz Artist Id': [uuid('e'), uuid('f')],
        'MusicBrainz Album Artist Id': [uuid('1')],
        ORIGINALDATE: ['1990-01-02'],
        'MusicBrainz Album Type': ['album', 'soundtrack'],
      },
    );
    expect(tags).toMatchObject({
      musicBrainz: ids,
      originalDate: '1990-01-02',
      releaseTypes: ['album', 'soundtrack'],
      compilation: true,
    });
  });

  it('takes an album artist of "Various Artists" for a compilation, and COMPILATION=0 for none', async () => {
    expect((await ffmpegTagged('ogg', { albumArtist: 'various artists' })).compilation).toBe(true);
    expect((await ffmpegTagged('aac', { albumArtist: 'Various Artists' })).compilation).toBe(true);
    expect((await ffmpegTagged('flac', { albumArtist: 'Various', extra: { COMPILATION: '0' } })).compilation).toBe(
      false,
    );
  });

  it('reads a release type and an original date ffmpeg joined or wrote in Vorbis comments', async () => {
    const tags = await ffmpegTagged('opus', {
      extra: { RELEASETYPE: 'album;Compilation', ORIGINALDATE: '2001-09-11' },
    });
    expect(tags).toMatchObject({ releaseTypes: ['album', 'compilation'], originalDate: '2001-09-11' });
  });
});

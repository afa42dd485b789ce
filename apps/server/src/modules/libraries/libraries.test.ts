import { mkdir, mkdtemp, readFile, rename, rm, stat, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Library, LibraryList, LibraryMessages, ServerMessages, Song, SubsonicScanStatus } from '@tonearm/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { z } from 'zod';
import { SQLITE_FILE_NAME } from '../../db/database.js';
import { encodeAudio, encodePicture, requireFfmpeg } from '../../../test/audio-formats.js';
import { describeEachDialect } from '../../../test/dialects.js';
import { makeAdmin, makeUser, type TestUser } from '../../../test/factories.js';
import { errorOf } from '../../../test/harness.js';
import { apiKeyOf, subsonicApi } from '../../../test/subsonic.js';
import { blobCounts, filesUnder } from '../../../test/stored.js';

requireFfmpeg();

/** A music folder: two albums of an artist, a song with no album, a folder cover, a link out of the folder. */
async function makeMusicFolder(root: string): Promise<void> {
  const picture = path.join(root, '..', `pic-${path.basename(root)}.png`);
  await encodePicture(picture, 64, 'blue');
  await mkdir(path.join(root, 'Ann Arbor', 'First Light'), { recursive: true });
  await mkdir(path.join(root, 'Ann Arbor', 'Second Wind'), { recursive: true });
  await mkdir(path.join(root, 'Loose'), { recursive: true });
  await encodeAudio(path.join(root, 'Ann Arbor', 'First Light', '01 Dawn.mp3'), 'mp3', {
    tags: { title: 'Dawn', artist: 'Ann Arbor', album: 'First Light', track: '1', genre: 'Rock', date: '2001' },
    picture,
    frequency: 330,
  });
  await encodeAudio(path.join(root, 'Ann Arbor', 'First Light', '02 Noon.flac'), 'flac', {
    tags: { title: 'Noon', artist: 'Ann Arbor', album: 'First Light', track: '2', genre: 'Rock' },
    frequency: 440,
  });
  await encodeAudio(path.join(root, 'Ann Arbor', 'Second Wind', 'Dusk.ogg'), 'ogg', {
    tags: { title: 'Dusk', artist: 'Ann Arbor', album: 'Second Wind', genre: 'Jazzy Nonsense' },
    frequency: 550,
  });
  await encodePicture(path.join(root, 'Ann Arbor', 'Second Wind', 'cover.png'), 48, 'green');
  await encodeAudio(path.join(root, 'Loose', 'Untagged.opus'), 'opus', { frequency: 660 });
  const outside = path.join(root, '..', `outside-${path.basename(root)}.mp3`);
  await encodeAudio(outside, 'mp3', { tags: { title: 'Outside' }, frequency: 770 });
  await symlink(outside, path.join(root, 'Loose', 'escape.mp3'));
}

const SongList = z.array(Song);

// Scans here are asked for, one by one: the folder watch (its own test below) would start others at its own pace.
describeEachDialect('libraries (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  let admin: TestUser;
  let listener: TestUser;
  let base: string;
  let root: string;
  let library: Library;

  const settled = () => t.composition.services.libraries.settled();
  const songs = async () =>
    (await t.as(listener).json('/api/songs', SongList)).filter((song) => song.link.includes('/lib'));
  const scan = async () => {
    const answer = await t.as(admin).post(`/api/libraries/${String(library.id)}/scan`);
    expect(answer.statusCode, answer.body).toBe(200);
    await settled();
    return t.as(admin).json(`/api/libraries/${String(library.id)}`, Library);
  };

  beforeAll(async () => {
    admin = await makeAdmin(t);
    listener = await makeUser(t);
    base = await mkdtemp(path.join(tmpdir(), 'tonearm-library-'));
    root = path.join(base, 'Music');
    await mkdir(root);
    await makeMusicFolder(root);
  });

  afterAll(async () => {
    await rm(base, { recursive: true, force: true });
  });

  it('refuses a folder that is not there, a file, a relative path, and anyone but an administrator', async () => {
    const cases: [Record<string, string>, number, string][] = [
      [{ path: path.join(base, 'nowhere') }, 400, LibraryMessages.pathMissing],
      [{ path: path.join(base, `outside-${path.basename(root)}.mp3`) }, 400, LibraryMessages.pathNotFolder],
      [{ path: 'Music' }, 400, LibraryMessages.pathNotAbsolute],
      [{ path: '' }, 400, LibraryMessages.pathRequired],
    ];
    for (const [body, status, message] of cases) {
      const answer = await t.as(admin).post('/api/libraries', body);
      expect(answer.statusCode, JSON.stringify(body)).toBe(status);
      expect(errorOf(answer.body).message).toBe(message);
    }
    expect((await t.as(listener).post('/api/libraries', { path: root })).statusCode).toBe(403);
    expect((await t.as(null).get('/api/libraries')).statusCode).toBe(401);
    expect((await t.as(admin).json('/api/libraries', LibraryList)).libraries).toEqual([]);
  });

  it('adds a folder, scans it in place, and copies no audio', async () => {
    const answer = await t.as(admin).post('/api/libraries', { path: root });
    expect(answer.statusCode, answer.body).toBe(201);
    library = Library.parse(answer.json());
    expect(library).toMatchObject({ name: 'Music', path: root });
    await settled();
    if (t.dialect === 'sqlite') {
      // The scan folded SQLite's write-ahead log into the database and emptied it (DATA_DIR stays small).
      const wal = await stat(path.join(t.dataDir, `${SQLITE_FILE_NAME}-wal`)).catch(() => null);
      expect(wal?.size ?? 0).toBe(0);
    }
    library = await t.as(admin).json(`/api/libraries/${String(library.id)}`, Library);
    expect(library.scan).toMatchObject({ state: 'done', seen: 4, done: 4, added: 4, missing: 0 });
    expect(library.songCount).toBe(4);
    // The link out of the folder is reported, never read.
    expect(library.scan?.problems).toEqual([
      { path: 'Loose/escape.mp3', reason: 'a link to outside the music folder' },
    ]);

    const listed = await songs();
    expect(listed.map((song) => song.name).sort()).toEqual(['Dawn', 'Dusk', 'Noon', 'Untagged']);
    const dawn = listed.find((song) => song.name === 'Dawn');
    expect(dawn).toMatchObject({ artistName: 'Ann Arbor', albumName: 'First Light', trackNumber: 1, year: 2001 });
    expect(dawn?.durationMs).toBeGreaterThan(1500);
    const dusk = listed.find((song) => song.name === 'Dusk');
    // A genre tag that names no catalogue genre: the library's default genre, the tag kept.
    expect(dusk).toMatchObject({ genre: 'Pop', genreTag: 'Jazzy Nonsense', albumName: 'Second Wind' });
    expect((await blobCounts(t.dataDir)).audio).toBe(0);
    expect((await blobCounts(t.dataDir)).image).toBe(0);
  });

  it('streams a library file with Range, 304 and HEAD, and makes only thumbnails of its covers', async () => {
    const dawn = (await songs()).find((song) => song.name === 'Dawn');
    if (dawn === undefined) throw new Error('no Dawn');
    const bytes = await readFile(path.join(root, 'Ann Arbor', 'First Light', '01 Dawn.mp3'));
    const full = await t.as(listener).get(dawn.link);
    expect(full.statusCode).toBe(200);
    expect(full.headers['content-type']).toBe('audio/mpeg');
    expect(full.rawPayload.equals(bytes)).toBe(true);
    const part = await t.as(listener).get(dawn.link, { headers: { range: 'bytes=10-19' } });
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(bytes.subarray(10, 20))).toBe(true);
    const etag = String(full.headers.etag);
    expect((await t.as(listener).get(dawn.link, { headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    expect((await t.as(listener).inject({ method: 'HEAD', url: dawn.link })).headers['content-length']).toBe(
      String(bytes.length),
    );
    expect((await t.as(null).get(dawn.link)).statusCode).toBe(401);

    // The embedded picture and the folder's cover: thumbnails made on demand, the originals left in the folder.
    const dusk = (await songs()).find((song) => song.name === 'Dusk');
    for (const song of [dawn, dusk]) {
      expect(song?.imgLink).toMatch(/^\/media\/images\//);
      const image = await t.as(listener).get(song?.imgLink ?? '');
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe('image/webp');
    }
    const counts = await blobCounts(t.dataDir);
    expect(counts.audio).toBe(0);
    // Only thumbnails (`<sha256>-<width>.webp`): no original image in the store.
    const images = await filesUnder(path.join(t.dataDir, 'blobs', 'image'));
    expect(images.length).toBeGreaterThan(0);
    expect(images.every((file) => /-\d+\.webp$/.test(file))).toBe(true);
  });

  it('keeps a renamed file its song, likes included; marks a deleted one missing and brings it back', async () => {
    const noon = (await songs()).find((song) => song.name === 'Noon');
    if (noon === undefined) throw new Error('no Noon');
    expect((await t.as(listener).put(`/api/songs/${String(noon.id)}/like`)).statusCode).toBeLessThan(300);
    const from = path.join(root, 'Ann Arbor', 'First Light', '02 Noon.flac');
    const to = path.join(root, 'Ann Arbor', 'Second Wind', 'Noon (moved).flac');
    await rename(from, to);
    const after = await scan();
    expect(after.scan).toMatchObject({ state: 'done', moved: 1, added: 0, missing: 0 });
    const moved = (await songs()).find((song) => song.name === 'Noon');
    expect(moved?.id).toBe(noon.id);
    expect(moved?.likeSong).toBe(true);
    expect(moved?.link).not.toBe(noon.link);
    expect((await t.as(listener).get(noon.link)).statusCode).toBe(404);
    expect((await t.as(listener).get(moved?.link ?? '')).statusCode).toBe(200);

    const hidden = path.join(base, 'Noon.flac');
    await rename(to, hidden);
    const gone = await scan();
    expect(gone.scan).toMatchObject({ missing: 1 });
    expect(gone.missingCount).toBe(1);
    expect((await songs()).map((song) => song.name)).not.toContain('Noon');

    await rename(hidden, to);
    const back = await scan();
    expect(back.missingCount).toBe(0);
    const returned = (await songs()).find((song) => song.name === 'Noon');
    expect(returned).toMatchObject({ id: noon.id, likeSong: true });
  });

  it('skips unchanged files on a re-scan, and updates a changed one in place', async () => {
    const before = await songs();
    const dusk = before.find((song) => song.name === 'Dusk');
    await encodeAudio(path.join(root, 'Ann Arbor', 'Second Wind', 'Dusk.ogg'), 'ogg', {
      tags: { title: 'Dusk (remaster)', artist: 'Ann Arbor', album: 'Second Wind', genre: 'Rock' },
      frequency: 555,
    });
    const after = await scan();
    expect(after.scan).toMatchObject({ seen: 4, added: 0, updated: 1, moved: 0, missing: 0 });
    const changed = (await songs()).find((song) => song.id === dusk?.id);
    expect(changed).toMatchObject({ name: 'Dusk (remaster)', genre: 'Rock' });
  });

  it('reports scans to Subsonic apps: getScanStatus for anyone, startScan for administrators', async () => {
    const ScanStatus = z.object({ scanStatus: SubsonicScanStatus });
    const asListener = subsonicApi(t, { apiKey: await apiKeyOf(t, listener) });
    const idle = await asListener.shape('getScanStatus', {}, ScanStatus);
    expect(idle.scanStatus).toEqual({ scanning: false, count: 4 });
    await asListener.error('startScan', {}, 50);
    const asAdmin = subsonicApi(t, { apiKey: await apiKeyOf(t, admin) });
    // One call (shape() asks twice, in JSON and XML, and the scan moves on in between).
    const started = ScanStatus.parse({ scanStatus: (await asAdmin.json('startScan')).scanStatus });
    expect(started.scanStatus.scanning).toBe(true);
    await settled();
    const after = await asAdmin.shape('getScanStatus', {}, ScanStatus);
    expect(after.scanStatus).toEqual({ scanning: false, count: 4 });
  });

  it('refuses a second library over the same folder or inside it, and renames', async () => {
    const same = await t.as(admin).post('/api/libraries', { path: root });
    expect(same.statusCode).toBe(409);
    const inside = await t.as(admin).post('/api/libraries', { path: path.join(root, 'Loose') });
    expect(errorOf(inside.body).message).toBe(LibraryMessages.pathOverlaps);
    const renamed = await t.as(admin).patch(`/api/libraries/${String(library.id)}`, { name: 'Vinyl rips' });
    expect(Library.parse(renamed.json()).name).toBe('Vinyl rips');
    expect((await t.as(admin).get('/api/libraries/999999')).statusCode).toBe(404);
    expect(errorOf((await t.as(admin).get('/api/libraries/999999')).body).message).toBe(ServerMessages.notFound);
  });

  it('removes a library: its songs leave the catalogue, its files stay on disk', async () => {
    const answer = await t.as(admin).delete(`/api/libraries/${String(library.id)}`);
    expect(answer.statusCode).toBe(204);
    expect(await songs()).toEqual([]);
    await expect(readFile(path.join(root, 'Ann Arbor', 'First Light', '01 Dawn.mp3'))).resolves.toBeInstanceOf(Buffer);
    expect((await t.as(admin).json('/api/libraries', LibraryList)).libraries).toEqual([]);
  });
});

describeEachDialect('library folder watch (%s)', { env: { SCAN_QUIET_MS: '200' } }, (t) => {
  it('scans a library once its folder has been quiet after a change', { timeout: 30_000 }, async () => {
    const admin = await makeAdmin(t);
    const base = await mkdtemp(path.join(tmpdir(), 'tonearm-watch-'));
    try {
      const created = await t.as(admin).post('/api/libraries', { path: base });
      const library = Library.parse(created.json());
      await t.composition.services.libraries.settled();
      await mkdir(path.join(base, 'New'));
      await encodeAudio(path.join(base, 'New', 'Arrival.mp3'), 'mp3', { tags: { title: 'Arrival' }, frequency: 880 });
      await expect
        .poll(async () => (await t.as(admin).json(`/api/libraries/${String(library.id)}`, Library)).songCount, {
          timeout: 20_000,
          interval: 200,
        })
        .toBe(1);
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

const RECORDING_ID = '0b7c8d6e-1a2b-4c3d-8e9f-0123456789ab';
const RELEASE_ID = '9f8e7d6c-5b4a-4392-8170-fedcba987654';

describeEachDialect('library songs by many artists (%s)', { env: { SCAN_WATCH: '0' } }, (t) => {
  it('files a song under each of its artists, keeps the roles and MusicBrainz ids, and tells Subsonic apps', async () => {
    const admin = await makeAdmin(t);
    const base = await mkdtemp(path.join(tmpdir(), 'tonearm-credits-'));
    try {
      await encodeAudio(path.join(base, 'duet.flac'), 'flac', {
        tags: {
          title: 'Duet',
          artist: 'Ann Arbor; Ben Bolt',
          album: 'Together',
          albumArtist: 'Various Artists',
          genre: 'Folk',
          extra: {
            composer: 'Cara Cole',
            MUSICBRAINZ_TRACKID: RECORDING_ID,
            MUSICBRAINZ_ALBUMID: RELEASE_ID,
            RELEASETYPE: 'album; compilation',
            ORIGINALDATE: '1999-04-01',
          },
        },
        frequency: 500,
      });
      await encodeAudio(path.join(base, 'AC-DC.mp3'), 'mp3', {
        tags: { title: 'Thunder', artist: 'AC/DC', genre: 'Hard Rock' },
        frequency: 510,
      });
      const created = await t.as(admin).post('/api/libraries', { path: base });
      expect(created.statusCode).toBe(201);
      await t.composition.services.libraries.settled();
      const listed = await t.as(admin).json('/api/songs', SongList);
      const duet = listed.find((song) => song.name === 'Duet');
      expect(duet?.artists.map((artist) => artist.name)).toEqual(['Ann Arbor', 'Ben Bolt']);
      expect(duet).toMatchObject({ artistName: 'Ann Arbor', displayArtist: 'Ann Arbor; Ben Bolt' });
      expect(duet?.contributors).toEqual([
        { role: 'composer', subRole: null, artistId: expect.any(Number) as number, artistName: 'Cara Cole' },
      ]);
      // "AC/DC" is one artist: never split on "/".
      expect(listed.find((song) => song.name === 'Thunder')?.artists.map((artist) => artist.name)).toEqual(['AC/DC']);

      // The song appears under each of its artists.
      for (const artist of duet?.artists ?? []) {
        const page = await t.as(admin).get(`/artists/${String(artist.id)}`);
        expect(page.statusCode).toBe(200);
        expect(page.json<{ songs: number[] }>().songs).toContain(duet?.id);
      }

      const subsonic = subsonicApi(t, { apiKey: await apiKeyOf(t, admin) });
      const answer = await subsonic.json('getSong', { id: String(duet?.id) });
      const song = answer.song as Record<string, unknown>;
      expect(song).toMatchObject({
        displayArtist: 'Ann Arbor; Ben Bolt',
        musicBrainzId: RECORDING_ID,
        artists: [{ name: 'Ann Arbor' }, { name: 'Ben Bolt' }],
        albumArtists: [{ name: 'Various Artists' }],
        contributors: [{ role: 'composer', artist: { name: 'Cara Cole' } }],
      });
      const album = (await subsonic.json('getAlbum', { id: String(song.albumId) })).album as Record<string, unknown>;
      expect(album).toMatchObject({
        isCompilation: true,
        releaseTypes: ['album', 'compilation'],
        musicBrainzId: RELEASE_ID,
        originalReleaseDate: { year: 1999, month: 4, day: 1 },
      });
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

describeEachDialect('MUSIC_DIR (%s)', { uses: 'nothing' }, (t) => {
  it('makes the folder the first library at start, named after it, and scans it once', async () => {
    const base = await mkdtemp(path.join(tmpdir(), 'tonearm-music-dir-'));
    const music = path.join(base, 'My Music');
    try {
      await mkdir(music);
      await encodeAudio(path.join(music, 'one.mp3'), 'mp3', { tags: { title: 'One', genre: 'Pop' }, frequency: 600 });
      await t.withApp({ env: { MUSIC_DIR: music, SCAN_WATCH: '0' } }, async (app) => {
        await app.app.ready();
        await app.composition.services.libraries.settled();
        const admin = await makeAdmin(app);
        const { libraries } = await app.as(admin).json('/api/libraries', LibraryList);
        expect(libraries).toMatchObject([{ name: 'My Music', path: music, songCount: 1 }]);
        const scans = await app.db.selectFrom('library_scans').select('state').execute();
        expect(scans).toEqual([{ state: 'done' }]);
      });
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  });
});

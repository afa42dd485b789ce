import { describe, expect, it } from 'vitest';
import { checkSubsonicAnswer, subsonicMethodOf, type SubsonicExchange } from './subsonic-answers.js';

/** The checker every test's Subsonic answers go through must itself refuse what the specification refuses. */

const HEAD = 'status="ok" version="1.16.1" type="tonearm" serverVersion="0.1.0" openSubsonic="true"';
const ENVELOPE = { status: 'ok', version: '1.16.1', type: 'tonearm', serverVersion: '0.1.0', openSubsonic: true };

const json = (method: string, body: Record<string, unknown>, status = 200): SubsonicExchange => ({
  url: `/rest/${method}.view?f=json&apiKey=k`,
  httpMethod: 'GET',
  status,
  contentType: 'application/json; charset=utf-8',
  body: JSON.stringify({ 'subsonic-response': { ...ENVELOPE, ...body } }),
});

const xml = (method: string, inner: string, head = HEAD): SubsonicExchange => ({
  url: `/rest/${method}?apiKey=k`,
  httpMethod: 'GET',
  status: 200,
  contentType: 'text/xml; charset=utf-8',
  body: `<?xml version="1.0" encoding="UTF-8"?><subsonic-response xmlns="http://subsonic.org/restapi" ${head}>${inner}</subsonic-response>`,
});

const song = { id: '1', isDir: false, title: 'Dawn' };

describe('checkSubsonicAnswer', () => {
  it('names the method of /rest/ URLs only', () => {
    expect(subsonicMethodOf('/rest/getAlbum.view?id=1')).toBe('getAlbum');
    expect(subsonicMethodOf('http://127.0.0.1:4000/rest/ping')).toBe('ping');
    expect(subsonicMethodOf('/api/songs')).toBeNull();
  });

  it('takes answers as the specification writes them, in JSON and in XML', () => {
    expect(checkSubsonicAnswer(json('getSong', { song })).answer).toMatchObject({ song });
    const genres = checkSubsonicAnswer(
      xml('getGenres', '<genres><genre songCount="2" albumCount="1">Rock</genre></genres>'),
    );
    expect(genres.answer).toMatchObject({ genres: { genre: [{ value: 'Rock', songCount: 2, albumCount: 1 }] } });
    const extensions = checkSubsonicAnswer(
      xml(
        'getOpenSubsonicExtensions',
        '<openSubsonicExtensions name="formPost"><versions>1</versions></openSubsonicExtensions>',
      ),
    );
    expect(extensions.answer).toMatchObject({ openSubsonicExtensions: [{ name: 'formPost', versions: [1] }] });
    // An array XML writes no element of is empty: a required one is there, empty.
    expect(checkSubsonicAnswer(xml('getNowPlaying', '<nowPlaying/>')).answer).toMatchObject({
      nowPlaying: { entry: [] },
    });
    const failed = xml('getSong', '<error code="70" message="Song not found"/>', HEAD.replace('ok', 'failed'));
    expect(checkSubsonicAnswer(failed).answer).toMatchObject({ status: 'failed', error: { code: 70 } });
    expect(checkSubsonicAnswer({ ...json('stream', {}), contentType: 'audio/mpeg', body: '' }).format).toBe('bytes');
  });

  it('refuses a field the specification does not name, a missing required one, and a wrong type', () => {
    expect(() => checkSubsonicAnswer(json('getSong', { song: { ...song, email: 'x' } }))).toThrow(/email/);
    expect(() => checkSubsonicAnswer(json('getNowPlaying', { nowPlaying: {} }))).toThrow(/entry/);
    expect(() => checkSubsonicAnswer(json('getPlayQueue', {}))).toThrow(/playQueue/);
    expect(() => checkSubsonicAnswer(json('getSong', { song: { ...song, duration: '3' } }))).toThrow(/duration/);
    expect(() => checkSubsonicAnswer(json('getSong', { song: { ...song, created: '2024-01-01 10:00' } }))).toThrow(
      /created/,
    );
    expect(() => checkSubsonicAnswer(json('getSong', { song, extra: {} }))).toThrow(/extra/);
  });

  it('refuses the same in XML: unknown attributes and elements, text where a number belongs', () => {
    expect(() => checkSubsonicAnswer(xml('getSong', '<song id="1" isDir="false" title="a" email="x"/>'))).toThrow(
      /email/,
    );
    expect(() => checkSubsonicAnswer(xml('getSong', '<song id="1" isDir="no" title="a"/>'))).toThrow(/isDir/);
    expect(() => checkSubsonicAnswer(xml('getSong', '<song id="1" isDir="false" title="a" year="soon"/>'))).toThrow(
      /year/,
    );
    expect(() =>
      checkSubsonicAnswer(xml('getSong', '<song id="1" isDir="false" title="a"><genres>Rock</genres></song>')),
    ).toThrow(/genres/);
    expect(() => checkSubsonicAnswer(xml('getSong', '<song id="1" isDir="false" title="a"/><song id="2"/>'))).toThrow();
    expect(() =>
      checkSubsonicAnswer({ ...xml('ping', ''), body: xml('ping', '').body.replace('subsonic.org', 'example.org') }),
    ).toThrow(/namespace/);
  });

  it('refuses an envelope that is not Tonearm’s, an error outside the specification, and a body with an error', () => {
    expect(() => checkSubsonicAnswer(json('ping', { version: '1.15.0' }))).toThrow(/version/);
    expect(() => checkSubsonicAnswer(json('ping', { status: 'failed', error: { code: 99 } }))).toThrow(/code/);
    expect(() => checkSubsonicAnswer(json('ping', { status: 'failed', error: { code: 0 }, song }))).toThrow(/song/);
    expect(() => checkSubsonicAnswer(json('ping', { error: { code: 0 } }))).toThrow(/error/);
  });

  it('refuses the wrong format, a method without a schema, bytes from a method that has none, a wrong status', () => {
    expect(() => checkSubsonicAnswer({ ...json('ping', {}), url: '/rest/ping' })).toThrow(/f=json/);
    expect(() => checkSubsonicAnswer(json('getEverything', {}))).toThrow(/no schema/);
    expect(() => checkSubsonicAnswer({ ...json('getSong', {}), contentType: 'audio/mpeg' })).toThrow(/audio\/mpeg/);
    expect(() => checkSubsonicAnswer(json('ping', {}, 201))).toThrow(/HTTP 201/);
    expect(() => checkSubsonicAnswer({ ...json('ping', {}), body: '{"ping":{}}' })).toThrow(/subsonic-response/);
  });
});

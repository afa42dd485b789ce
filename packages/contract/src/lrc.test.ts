import { describe, expect, it } from 'vitest';
import { LYRICS_MAX_BYTES } from './constants.js';
import {
  languageCode,
  lyricsText,
  parseLyrics,
  toLrc,
  utf8Length,
  type LyricsParse,
  type ParsedLyrics,
} from './lrc.js';
import { LyricsMessages } from './messages.js';

function lyricsOf(text: string): ParsedLyrics {
  const parsed = parseLyrics(text);
  if (!parsed.ok) throw new Error(`expected lyrics, got: ${parsed.problem.message}`);
  return parsed.lyrics;
}

function problemOf(text: string) {
  const parsed: LyricsParse = parseLyrics(text);
  if (parsed.ok) throw new Error('expected a problem');
  return parsed.problem;
}

describe('parseLyrics: line times', () => {
  it('reads [mm:ss.xx], [mm:ss.xxx], [mm:ss.x], [mm:ss] and [mm:ss:xx] into milliseconds', () => {
    const lyrics = lyricsOf(
      ['[00:01.50]Hundredths', '[00:02.125]Thousandths', '[00:03.7]Tenths', '[00:04]Whole', '[01:05:20]Colon'].join(
        '\n',
      ),
    );
    expect(lyrics.synced).toBe(true);
    expect(lyrics.lines).toEqual([
      { startMs: 1500, text: 'Hundredths' },
      { startMs: 2125, text: 'Thousandths' },
      { startMs: 3700, text: 'Tenths' },
      { startMs: 4000, text: 'Whole' },
      { startMs: 65_200, text: 'Colon' },
    ]);
  });

  it('sorts lines written out of order, and keeps lines of one time in the order written', () => {
    const lyrics = lyricsOf('[00:30.00]Third\n[00:10.00]First\n[00:20.00]Second a\n[00:20.00]Second b');
    expect(lyrics.lines.map((line) => line.text)).toEqual(['First', 'Second a', 'Second b', 'Third']);
  });

  it('gives a line with several stamps one line per stamp (a chorus written once)', () => {
    const lyrics = lyricsOf('[00:05.00]Verse\n[00:10.00][01:10.00][00:40.00]Chorus\n[00:20.00]Bridge');
    expect(lyrics.lines).toEqual([
      { startMs: 5000, text: 'Verse' },
      { startMs: 10_000, text: 'Chorus' },
      { startMs: 20_000, text: 'Bridge' },
      { startMs: 40_000, text: 'Chorus' },
      { startMs: 70_000, text: 'Chorus' },
    ]);
  });

  it('keeps a stamped empty line (an instrumental break), ignores blank lines and reads minutes past 99', () => {
    const lyrics = lyricsOf('[00:01.00]Sing\n\n[00:02.00]\n\r\n[100:00.00]Much later');
    expect(lyrics.lines).toEqual([
      { startMs: 1000, text: 'Sing' },
      { startMs: 2000, text: '' },
      { startMs: 6_000_000, text: 'Much later' },
    ]);
  });

  it('reads CRLF and CR line ends alike, and drops a byte order mark', () => {
    expect(lyricsOf('\uFEFF[00:01.00]One\r\n[00:02.00]Two\r[00:03.00]Three').lines.map((line) => line.text)).toEqual([
      'One',
      'Two',
      'Three',
    ]);
  });

  it('keeps brackets after the stamps as text, and words in brackets that are no stamp', () => {
    const lyrics = lyricsOf('[00:01.00][Chorus] Oh\n[00:02.00]Hello [world]');
    expect(lyrics.lines.map((line) => line.text)).toEqual(['[Chorus] Oh', 'Hello [world]']);
  });

  it('removes control characters and bidi overrides from the text', () => {
    expect(lyricsOf('[00:01.00]Safe\u202Etxt.exe\u0007').lines[0]?.text).toBe('Safetxt.exe');
  });
});

describe('parseLyrics: enhanced LRC word times', () => {
  it('reads <mm:ss.xx> word stamps into words, and the line text without them', () => {
    const lyrics = lyricsOf('[00:12.00]<00:12.00>Hello <00:12.50>bright <00:13.10>world<00:14.00>');
    expect(lyrics.lines).toEqual([
      {
        startMs: 12_000,
        text: 'Hello bright world',
        words: [
          { startMs: 12_000, text: 'Hello ' },
          { startMs: 12_500, text: 'bright ' },
          { startMs: 13_100, text: 'world' },
        ],
      },
    ]);
  });

  it('takes text before the first word stamp as a word at the line time, and collapses spaces', () => {
    const line = lyricsOf('[00:01.00]Oh <00:01.50> yeah').lines[0];
    expect(line).toEqual({
      startMs: 1000,
      text: 'Oh yeah',
      words: [
        { startMs: 1000, text: 'Oh ' },
        { startMs: 1500, text: ' yeah' },
      ],
    });
  });

  it('moves the word times with each repeat of a line with several stamps', () => {
    const lyrics = lyricsOf('[00:10.00][00:30.00]<00:10.00>La <00:10.40>la');
    expect(lyrics.lines.map((line) => line.words?.map((word) => word.startMs))).toEqual([
      [10_000, 10_400],
      [30_000, 30_400],
    ]);
  });

  it('leaves "<3" as text: only <digits:…> is a word stamp', () => {
    expect(lyricsOf('[00:01.00]I <3 you').lines[0]).toEqual({ startMs: 1000, text: 'I <3 you' });
  });
});

describe('parseLyrics: metadata', () => {
  it('reads [offset:], [la:], [ar:] and [ti:], and ignores the other tags', () => {
    const lyrics = lyricsOf(
      [
        '[ar:The Band]',
        '[ti:A Song]',
        '[al:An Album]',
        '[by:someone]',
        '[length: 03:20]',
        '[la:EN]',
        '[offset:+250]',
        '[re:tool]',
        '[#:a comment]',
        '[00:01.00]Line',
      ].join('\n'),
    );
    expect(lyrics).toEqual({
      synced: true,
      lang: 'en',
      offsetMs: 250,
      artist: 'The Band',
      title: 'A Song',
      lines: [{ startMs: 1000, text: 'Line' }],
    });
  });

  it('keeps the times as written and the offset beside them: negative offsets too', () => {
    const lyrics = lyricsOf('[offset:-1500]\n[00:05.00]Later');
    expect(lyrics.offsetMs).toBe(-1500);
    expect(lyrics.lines[0]?.startMs).toBe(5000);
  });

  it('names the line of a bad offset', () => {
    const problem = problemOf('[00:01.00]One\n[offset:soon]');
    expect(problem).toMatchObject({ kind: 'badLine', line: 2 });
    expect(problem.message).toBe(LyricsMessages.badLine(2, '[offset:soon]', LyricsMessages.badOffset));
  });

  it('treats "und", "xxx" and anything that is no ISO 639 code as no language', () => {
    expect(languageCode('eng')).toBe('eng');
    expect(languageCode(' DE ')).toBe('de');
    expect(languageCode('xxx')).toBeNull();
    expect(languageCode('und')).toBeNull();
    expect(languageCode('English')).toBeNull();
    expect(lyricsOf('[la:English]\nWords').lang).toBeNull();
  });

  it('does not take a bracketed label with a colon for a tag ("[Chorus: Rihanna]" is a line of plain lyrics)', () => {
    expect(lyricsOf('[Chorus: Rihanna]\nWords').lines.map((line) => line.text)).toEqual(['[Chorus: Rihanna]', 'Words']);
  });
});

describe('parseLyrics: plain text', () => {
  it('is unsynced lyrics: lines in order, one blank line kept between stanzas, none at the ends', () => {
    const lyrics = lyricsOf('\n\nFirst verse\nstill first\n\n\n\nSecond verse\n[2x]\n\n');
    expect(lyrics.synced).toBe(false);
    expect(lyrics.lines).toEqual([
      { text: 'First verse' },
      { text: 'still first' },
      { text: '' },
      { text: 'Second verse' },
      { text: '[2x]' },
    ]);
  });

  it('takes the metadata tags out of plain text too', () => {
    const lyrics = lyricsOf('[la:fr]\n[ti:Chanson]\nBonjour');
    expect(lyrics).toMatchObject({ synced: false, lang: 'fr', title: 'Chanson', lines: [{ text: 'Bonjour' }] });
  });
});

describe('parseLyrics: what is wrong, by line', () => {
  it('names a stamp whose seconds are 60 or more', () => {
    const problem = problemOf('[00:01.00]Fine\n[01:60.00]Too many seconds');
    expect(problem).toEqual({
      kind: 'badLine',
      line: 2,
      message: LyricsMessages.badLine(2, '[01:60.00]Too many seconds', LyricsMessages.secondsTooHigh('01:60.00')),
    });
  });

  it('names a stamp with bad numbers, and one with too many decimals', () => {
    expect(problemOf('[00:01.00]Fine\n\n[00:2x.00]Bad').line).toBe(3);
    expect(problemOf('[00:2x.00]Bad').message).toContain(LyricsMessages.notAStamp('00:2x.00'));
    expect(problemOf('[00:01.1234]Four decimals').message).toContain(LyricsMessages.notAStamp('00:01.1234'));
    expect(problemOf('[00:01.00 no end').line).toBe(1);
  });

  it('names a bad second stamp and a bad word stamp', () => {
    expect(problemOf('[00:01.00][00:99.00]Twice').message).toContain(LyricsMessages.secondsTooHigh('00:99.00'));
    expect(problemOf('[00:01.00]<00:01.00>One <00:70.00>two').message).toContain(
      LyricsMessages.secondsTooHigh('00:70.00'),
    );
  });

  it('names a line without a time among synced lines (before or after the stamped ones)', () => {
    expect(problemOf('[00:01.00]One\nTwo has no time\n[00:03.00]Three')).toEqual({
      kind: 'badLine',
      line: 2,
      message: LyricsMessages.badLine(2, 'Two has no time', LyricsMessages.noStamp),
    });
    expect(problemOf('Credits line\n[00:01.00]One').line).toBe(1);
  });

  it('shortens a long wrong line in the message', () => {
    const long = `[00:99.00]${'x'.repeat(200)}`;
    const { message } = problemOf(long);
    expect(message.length).toBeLessThan(200);
    expect(message).toContain('…');
  });

  it('refuses nothing but blanks and tags as empty', () => {
    expect(problemOf('')).toEqual({ kind: 'empty', message: LyricsMessages.empty });
    expect(problemOf('\n  \n[ar:Someone]\n').kind).toBe('empty');
  });

  it(`refuses more than LYRICS_MAX_BYTES of UTF-8 (${LYRICS_MAX_BYTES} bytes), counting multi-byte characters`, () => {
    const atLimit = 'é'.repeat(LYRICS_MAX_BYTES / 2);
    expect(utf8Length(atLimit)).toBe(LYRICS_MAX_BYTES);
    expect(parseLyrics(atLimit).ok).toBe(true);
    expect(problemOf(`${atLimit}a`)).toEqual({ kind: 'tooLarge', message: LyricsMessages.tooLarge });
    expect(utf8Length('a😀€')).toBe(1 + 4 + 3);
  });
});

describe('toLrc and lyricsText', () => {
  it('writes synced lyrics back as LRC that reads the same (language, offset, word times)', () => {
    const source = '[la:de]\n[offset:-120]\n[00:01.50]<00:01.50>Eins <00:02.00>zwei\n[00:03.00]\n[01:02.03]Drei';
    const lyrics = lyricsOf(source);
    const written = toLrc(lyrics);
    expect(written).toBe(source);
    expect(lyricsOf(written)).toEqual(lyrics);
  });

  it('writes plain lyrics as their lines, and lyricsText gives any lyrics as plain text', () => {
    const plain = lyricsOf('One\n\nTwo');
    expect(toLrc(plain)).toBe('One\n\nTwo');
    expect(lyricsText(lyricsOf('[00:01.00]One\n[00:02.00]Two').lines)).toBe('One\nTwo');
  });
});

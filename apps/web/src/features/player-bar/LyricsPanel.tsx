import { useQuery } from '@tanstack/react-query';
import { LyricsMessages, type Song, type SongLyrics, type SongLyricsLine } from '@tonearm/contract';
import { useEffect, useRef, useState } from 'react';
import { lineAt, lyricsQuery, shownAtMs } from '../../lib/lyrics.js';
import { usePlayerControls, usePlayerRuntime } from '../../player/usePlayer.js';
import { isWelcomeSong } from '../../player/welcome-song.js';
import './LyricsPanel.css';

/** What the lyrics' place says while they load, and when they cannot be read. */
export const LYRICS_LOADING = 'Loading lyrics…';
export const LYRICS_FAILED = 'The lyrics could not be loaded.';
/** A synced line without words (an instrumental break). */
const BREAK = '♪';

/** Where the playhead is in synced lyrics: the line shown, and in it the last word whose time has come (-1: none). */
interface Playhead {
  line: number;
  word: number;
}

function wordAt(line: SongLyricsLine | undefined, offsetMs: number, ms: number): number {
  const words = line?.words ?? [];
  let found = -1;
  for (const [index, word] of words.entries()) if (Math.max(0, word.startMs - offsetMs) <= ms) found = index;
  return found;
}

/**
 * The playhead in `lyrics`, read from the playing audio element's own `currentTime` on every animation frame (and on
 * every clock change, for a seek while paused): never a time counted on the side, so nothing drifts however long the
 * song. The state changes only when the line or word does.
 */
function usePlayhead(lyrics: SongLyrics): Playhead {
  const runtime = usePlayerRuntime();
  const [playhead, setPlayhead] = useState<Playhead>({ line: -1, word: -1 });
  useEffect(() => {
    const read = (): void => {
      const ms = runtime.audio.currentTime * 1000;
      const line = lineAt(lyrics, ms);
      const word = wordAt(lyrics.lines[line], lyrics.offsetMs, ms);
      setPlayhead((current) => (current.line === line && current.word === word ? current : { line, word }));
    };
    let frame = 0;
    const everyFrame = (): void => {
      read();
      frame = requestAnimationFrame(everyFrame);
    };
    if (typeof requestAnimationFrame === 'function') everyFrame();
    else read();
    const unsubscribe = runtime.clock.subscribe(read);
    return () => {
      if (typeof cancelAnimationFrame === 'function') cancelAnimationFrame(frame);
      unsubscribe();
    };
  }, [runtime, lyrics]);
  return playhead;
}

/** The scrollTop that puts an item (its top and height in the scrolled content) in the middle of the view. */
export function centredScrollTop(itemTop: number, itemHeight: number, viewHeight: number): number {
  return Math.max(0, itemTop - (viewHeight - itemHeight) / 2);
}

function SyncedLyrics({ lyrics }: { lyrics: SongLyrics }) {
  const { line: current, word } = usePlayhead(lyrics);
  const controls = usePlayerControls();
  const listRef = useRef<HTMLOListElement>(null);
  // The current line is kept in the middle of the lyrics' own scroll (never the page's).
  useEffect(() => {
    const list = listRef.current;
    const item = current < 0 ? null : list?.children[current];
    if (!list || !(item instanceof HTMLElement)) return;
    list.scrollTop = centredScrollTop(item.offsetTop, item.offsetHeight, list.clientHeight);
  }, [current]);
  return (
    <ol ref={listRef} className="lyrics lyrics--synced">
      {lyrics.lines.map((line, index) => {
        const state = index === current ? 'current' : index < current ? 'past' : 'future';
        return (
          <li
            key={index}
            className={`lyrics__line lyrics__line--${state}`}
            aria-current={state === 'current' || undefined}
          >
            <button
              type="button"
              className="lyrics__seek"
              title={`Play from ${formatLineTime(shownAtMs(line, lyrics.offsetMs))}`}
              onClick={() => {
                controls.seek(shownAtMs(line, lyrics.offsetMs) / 1000);
              }}
            >
              {line.text === '' ? (
                <span aria-label="Instrumental">{BREAK}</span>
              ) : line.words && state === 'current' ? (
                line.words.map((part, at) => (
                  <span key={at} className={at <= word ? 'lyrics__word lyrics__word--sung' : 'lyrics__word'}>
                    {part.text}
                  </span>
                ))
              ) : (
                line.text
              )}
            </button>
          </li>
        );
      })}
    </ol>
  );
}

function formatLineTime(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  return `${String(Math.floor(seconds / 60))}:${String(seconds % 60).padStart(2, '0')}`;
}

function PlainLyrics({ lyrics }: { lyrics: SongLyrics }) {
  return (
    <div className="lyrics lyrics--plain">
      {lyrics.lines.map((line, index) =>
        line.text === '' ? (
          <br key={index} />
        ) : (
          <p key={index} className="lyrics__text">
            {line.text}
          </p>
        ),
      )}
    </div>
  );
}

/**
 * The lyrics of the song playing (issue 27): synced lyrics follow the song (the current line highlighted and kept in
 * view; a click on a line plays from there), plain lyrics are shown as text, and a song without says so plainly.
 */
export function LyricsPanel({ song }: { song: Song }) {
  const welcome = isWelcomeSong(song);
  const query = useQuery({ ...lyricsQuery(song.id), enabled: !welcome });
  if (welcome || query.data === null) return <p className="lyrics__empty">{LyricsMessages.noLyrics}</p>;
  if (query.isPending) return <p className="lyrics__empty">{LYRICS_LOADING}</p>;
  if (query.isError) return <p className="lyrics__empty">{LYRICS_FAILED}</p>;
  return query.data.synced ? <SyncedLyrics lyrics={query.data} /> : <PlainLyrics lyrics={query.data} />;
}

import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { LyricsMessages, type SongLyrics } from '@tonearm/contract';
import { describe, expect, it } from 'vitest';
import { makeSong } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { WELCOME_SONG } from '../../player/welcome-song.js';
import { centredScrollTop, LYRICS_FAILED, LyricsPanel } from './LyricsPanel.js';

const song = makeSong(7, { name: 'Timed' });

const synced: SongLyrics = {
  synced: true,
  lang: 'en',
  offsetMs: 500,
  source: 'sidecar',
  lines: [
    { startMs: 1000, text: 'First line' },
    {
      startMs: 3000,
      text: 'Second line',
      words: [
        { startMs: 3000, text: 'Second ' },
        { startMs: 3600, text: 'line' },
      ],
    },
    { startMs: 6000, text: '' },
    { startMs: 9000, text: 'Last line' },
  ],
};

function render(lyrics: SongLyrics | null | Response, shown = song) {
  const api = mockApi({ 'lyrics.get': () => (lyrics instanceof Response ? lyrics : { lyrics }) });
  const view = renderInApp(<LyricsPanel song={shown} />);
  act(() => {
    view.player.controls.playList([shown], 0);
  });
  /** Moves the playing element to `seconds`, as playback does (the clock is told too, as a timeupdate would). */
  const playAt = (seconds: number) => {
    act(() => {
      view.player.audio.currentTime = seconds;
      view.player.clock.dispatch({ type: 'time', position: seconds });
    });
  };
  return { ...view, api, playAt };
}

const current = () => screen.queryAllByRole('listitem').find((item) => item.getAttribute('aria-current') === 'true');

describe('the lyrics view', () => {
  it('highlights the line whose time has come, read from the audio element, moved by the offset', async () => {
    const { playAt } = render(synced);
    await screen.findByText('First line');
    expect(current()).toBeUndefined();
    // Offset +500: "First line" (1.0 s) shows from 0.5 s.
    playAt(0.49);
    expect(current()).toBeUndefined();
    playAt(0.5);
    expect(current()).toHaveTextContent('First line');
    playAt(2.6);
    expect(current()).toHaveTextContent('Second line');
    playAt(300);
    expect(current()).toHaveTextContent('Last line');
    playAt(0);
    expect(current()).toBeUndefined();
  });

  it('marks the words sung so far in a line with word times', async () => {
    const { playAt } = render(synced);
    await screen.findByText('First line');
    playAt(2.5);
    const sung = () =>
      Array.from(current()?.querySelectorAll('.lyrics__word--sung') ?? []).map((word) => word.textContent);
    expect(sung()).toEqual(['Second ']);
    playAt(3.1);
    expect(sung()).toEqual(['Second ', 'line']);
  });

  it('plays from a line when it is clicked (its shown time, offset applied)', async () => {
    const { player } = render(synced);
    fireEvent.click(await screen.findByRole('button', { name: 'Second line' }));
    expect(player.audio.currentTime).toBe(2.5);
    expect(current()).toHaveTextContent('Second line');
    fireEvent.click(screen.getByRole('button', { name: 'Instrumental' }));
    expect(player.audio.currentTime).toBe(5.5);
  });

  it('shows plain lyrics as text, a blank line between stanzas', async () => {
    render({
      synced: false,
      lang: null,
      offsetMs: 0,
      source: 'uploaded',
      lines: [{ text: 'Verse one' }, { text: '' }, { text: 'Verse two' }],
    });
    expect(await screen.findByText('Verse one')).toBeInTheDocument();
    expect(screen.getByText('Verse two')).toBeInTheDocument();
    expect(screen.queryAllByRole('button')).toEqual([]);
  });

  it('says plainly that a song has no lyrics, and that lyrics could not be loaded', async () => {
    render(null);
    expect(await screen.findByText(LyricsMessages.noLyrics)).toBeInTheDocument();
    render(new Response('{"error":{"code":"internal-error","message":"x"}}', { status: 500 }));
    expect(await screen.findByText(LYRICS_FAILED)).toBeInTheDocument();
  });

  it('asks nothing for the welcome song, which has no lyrics', async () => {
    const { api } = render(synced, WELCOME_SONG);
    expect(screen.getByText(LyricsMessages.noLyrics)).toBeInTheDocument();
    await waitFor(() => {
      expect(api.calls()).toEqual([]);
    });
  });

  it('centres the current line in the lyrics’ own scroll', () => {
    expect(centredScrollTop(400, 40, 300)).toBe(270);
    expect(centredScrollTop(50, 40, 300)).toBe(0);
  });
});

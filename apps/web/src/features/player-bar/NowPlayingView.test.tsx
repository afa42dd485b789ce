import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { LyricsMessages } from '@tonearm/contract';
import { describe, expect, it, vi } from 'vitest';
import { makeSong } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { PlayerBar } from './PlayerBar.js';

const songs = [
  makeSong(1, {
    name: 'So What',
    artistId: 4,
    artistName: 'Miles Davis',
    artists: [
      { id: 4, name: 'Miles Davis' },
      { id: 5, name: 'John Coltrane' },
    ],
    displayArtist: 'Miles Davis feat. John Coltrane',
  }),
  makeSong(2, { name: 'Naima' }),
  makeSong(3, { name: 'Blue in Green' }),
];

/** The bar on every dashboard page, as in the app: it stays mounted when an artist's link is followed. */
function renderBar() {
  const api = mockApi({
    'likes.like': () => new Response(null, { status: 204 }),
    'lyrics.get': () => ({ lyrics: null }),
  });
  const view = renderInApp(<PlayerBar queueId="q" queueOpen={false} onToggleQueue={vi.fn()} />, {
    route: { pathname: '/dashboard/songs', state: null },
    path: '/dashboard/*',
  });
  act(() => {
    view.player.controls.playList(songs, 0);
  });
  const opener = within(screen.getByRole('region', { name: 'Player' })).getByRole('button', { name: 'Now playing' });
  const open = () => {
    fireEvent.click(opener);
    return screen.getByRole('dialog', { name: 'Now playing' });
  };
  return { ...view, api, opener, open };
}

describe('the Now playing view', () => {
  it('opens from the cover in the bar with the song, and Escape closes it with focus back on the cover', async () => {
    const { opener, open } = renderBar();
    expect(opener).toHaveAttribute('aria-haspopup', 'dialog');
    opener.focus();
    const view = open();
    expect(view).toHaveAttribute('aria-modal', 'true');
    expect(within(view).getByRole('heading', { name: 'So What' })).toBeInTheDocument();
    expect(
      within(view)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Miles Davis', 'John Coltrane']);
    expect(view.contains(document.activeElement)).toBe(true);
    await waitFor(() => {
      expect(within(view).getByRole('region', { name: 'Lyrics' })).toHaveTextContent(LyricsMessages.noLyrics);
    });

    fireEvent.keyDown(document.activeElement ?? view, { key: 'Escape' });
    expect(screen.queryByRole('dialog', { name: 'Now playing' })).toBeNull();
    expect(opener).toHaveFocus();
  });

  it('closes with its close button, and keeps Tab inside while open', () => {
    const { opener, open } = renderBar();
    opener.focus();
    const view = open();
    const close = within(view).getByRole('button', { name: 'Close dialog' });
    const buttons = within(view).getAllByRole('button');
    const last = buttons[buttons.length - 1];
    if (!last) throw new Error('no buttons in the view');
    last.focus();
    fireEvent.keyDown(last, { key: 'Tab' });
    expect(close).toHaveFocus();
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true });
    expect(last).toHaveFocus();

    fireEvent.click(close);
    expect(screen.queryByRole('dialog', { name: 'Now playing' })).toBeNull();
    expect(opener).toHaveFocus();
  });

  it('drives the one player: transport, play modes, volume, like and the queue', async () => {
    const { open, player, api } = renderBar();
    const view = open();
    const state = () => player.store.getState();

    fireEvent.click(within(view).getByRole('button', { name: 'Pause' }));
    expect(state().playing).toBe(false);
    fireEvent.click(within(view).getByRole('button', { name: 'Play' }));
    expect(state().playing).toBe(true);

    fireEvent.click(within(view).getByRole('button', { name: 'Next' }));
    expect(state().current.name).toBe('Naima');
    expect(within(view).getByRole('heading', { name: 'Naima' })).toBeInTheDocument();
    fireEvent.click(within(view).getByRole('button', { name: 'Previous' }));
    expect(state().current.name).toBe('So What');

    fireEvent.click(within(view).getByRole('button', { name: 'Shuffle' }));
    expect(state().shuffle).toBe(true);
    fireEvent.click(within(view).getByRole('button', { name: 'Shuffle' }));
    fireEvent.click(within(view).getByRole('button', { name: 'Repeat: off' }));
    expect(state().repeat).toBe('all');
    fireEvent.change(within(view).getByRole('slider', { name: 'Volume' }), { target: { value: '30' } });
    expect(state().volume).toBeCloseTo(0.3);
    fireEvent.click(within(view).getByRole('button', { name: 'Mute' }));
    expect(state().muted).toBe(true);

    fireEvent.click(within(view).getByRole('button', { name: 'Like So What' }));
    expect(state().current.likeSong).toBe(true);
    expect(within(view).getByRole('button', { name: 'Like So What' })).toHaveAttribute('aria-pressed', 'true');
    await waitFor(() => {
      expect(api.requests('likes.like')).toHaveLength(1);
    });

    const nextUp = within(view).getByRole('list', { name: 'Next up' });
    expect(
      within(nextUp)
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('aria-label')),
    ).toEqual(['Naima', 'Blue in Green']);
    fireEvent.click(within(nextUp).getByRole('button', { name: 'Play Blue in Green' }));
    expect(state().current.name).toBe('Blue in Green');
  });

  it('closes when an artist link is followed', () => {
    const { open } = renderBar();
    const view = open();
    fireEvent.click(within(view).getByRole('link', { name: 'John Coltrane' }));
    expect(screen.queryByRole('dialog', { name: 'Now playing' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Player' })).toBeInTheDocument();
    expect(screen.getByTestId('location').textContent).toMatch(/^\/dashboard\/artist\/\d+$/);
  });
});

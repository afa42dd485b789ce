import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { makeSong } from '../../test/fixtures.js';
import { renderInApp } from '../../test/render.js';
import { PlayerBar } from './PlayerBar.js';
import { QueuePanel } from './QueuePanel.js';

const songs = ['So What', 'Naima', 'Blue in Green', 'Giant Steps'].map((name, i) => makeSong(i + 1, { name }));

function renderPlayer() {
  const onClose = vi.fn();
  const view = renderInApp(
    <>
      <PlayerBar queueId="q" queueOpen onToggleQueue={vi.fn()} />
      <QueuePanel id="q" onClose={onClose} />
    </>,
  );
  act(() => {
    view.player.controls.playList(songs, 0);
  });
  const queue = screen.getByRole('region', { name: 'Queue' });
  const nextUp = () =>
    within(queue)
      .queryAllByRole('listitem')
      .map((item) => item.getAttribute('aria-label'));
  return { ...view, onClose, queue, nextUp, bar: screen.getByRole('region', { name: 'Player' }) };
}

describe('player bar and queue view', () => {
  it('shows what plays now and next, and edits the queue', () => {
    const { queue, nextUp, player } = renderPlayer();
    expect(within(queue).getByRole('group', { name: 'Now playing: So What' })).toBeInTheDocument();
    expect(nextUp()).toEqual(['Naima', 'Blue in Green', 'Giant Steps']);

    fireEvent.click(within(queue).getByRole('button', { name: 'Move Giant Steps up' }));
    expect(nextUp()).toEqual(['Naima', 'Giant Steps', 'Blue in Green']);
    fireEvent.click(within(queue).getByRole('button', { name: 'Remove Naima from queue' }));
    expect(nextUp()).toEqual(['Giant Steps', 'Blue in Green']);
    fireEvent.click(within(queue).getByRole('button', { name: 'Play Blue in Green' }));
    expect(player.store.getState().current.name).toBe('Blue in Green');
    expect(nextUp()).toEqual([]);
    expect(within(queue).getByText(/Nothing queued/)).toBeInTheDocument();
  });

  it('toggles shuffle and cycles repeat from the bar, with their state announced', () => {
    const { bar, player } = renderPlayer();
    const shuffle = within(bar).getByRole('button', { name: 'Shuffle' });
    fireEvent.click(shuffle);
    expect(shuffle.getAttribute('aria-pressed')).toBe('true');
    expect(player.store.getState().shuffle).toBe(true);
    const repeat = () => within(bar).getByRole('button', { name: /^Repeat: / });
    expect(repeat().getAttribute('aria-label')).toBe('Repeat: off');
    fireEvent.click(repeat());
    expect(repeat().getAttribute('aria-label')).toBe('Repeat: all');
    fireEvent.click(repeat());
    expect(repeat().getAttribute('aria-label')).toBe('Repeat: one');
    expect(repeat().getAttribute('aria-pressed')).toBe('true');
  });

  it('likes the current song from the player, and Escape closes the queue', () => {
    const { bar, queue, onClose, player } = renderPlayer();
    expect(within(bar).getByRole('button', { name: 'Like So What' }).getAttribute('aria-pressed')).toBe('false');
    fireEvent.click(within(bar).getByRole('button', { name: 'Like So What' }));
    expect(player.store.getState().current.likeSong).toBe(true);
    expect(within(bar).getByRole('button', { name: 'Like So What' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.keyDown(queue, { key: 'Escape' });
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});

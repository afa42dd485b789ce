import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeSong } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { PlayerBar } from './PlayerBar.js';
import { QUEUE_PLAIN_MAX, QUEUE_ROW_HEIGHT, QueuePanel } from './QueuePanel.js';
import { LONG_PRESS_MS } from './useRevealedActions.js';

const songs = ['So What', 'Naima', 'Blue in Green', 'Giant Steps'].map((name, i) => makeSong(i + 1, { name }));

function renderPlayer(
  start: (player: ReturnType<typeof renderInApp>['player']) => void = (player) => {
    player.controls.playList(songs, 0);
  },
) {
  const onClose = vi.fn();
  const view = renderInApp(
    <>
      <PlayerBar queueId="q" queueOpen onToggleQueue={vi.fn()} />
      <QueuePanel id="q" onClose={onClose} />
    </>,
  );
  act(() => {
    start(view.player);
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

describe("a queued row's actions", () => {
  function rowOf(queue: HTMLElement, name: string): HTMLElement {
    return within(queue).getByRole('listitem', { name });
  }
  const actionsOf = (row: HTMLElement) => row.getAttribute('data-actions');

  it('are hidden until the mouse is over the row, so the title has its width', () => {
    const { queue } = renderPlayer();
    const row = rowOf(queue, 'Naima');
    expect(actionsOf(row)).toBe('hidden');
    expect(actionsOf(rowOf(queue, 'Giant Steps'))).toBe('hidden');
    fireEvent.mouseEnter(row);
    expect(actionsOf(row)).toBe('shown');
    expect(actionsOf(rowOf(queue, 'Giant Steps'))).toBe('hidden');
    fireEvent.mouseLeave(row);
    expect(actionsOf(row)).toBe('hidden');
  });

  it('show while the keyboard focus is inside the row, and stay reachable by Tab', () => {
    const { queue } = renderPlayer();
    const row = rowOf(queue, 'Blue in Green');
    const handle = within(row).getByRole('button', { name: 'Reorder Blue in Green' });
    act(() => {
      handle.focus();
    });
    expect(actionsOf(row)).toBe('shown');
    const play = within(row).getByRole('button', { name: 'Play Blue in Green' });
    act(() => {
      play.focus();
    });
    expect(actionsOf(row)).toBe('shown');
    act(() => {
      within(queue).getByRole('button', { name: 'Reorder Giant Steps' }).focus();
    });
    expect(actionsOf(row)).toBe('hidden');
    expect(actionsOf(rowOf(queue, 'Giant Steps'))).toBe('shown');
  });

  it('show after a long-press, not a tap, until a press outside the row', () => {
    vi.useFakeTimers();
    try {
      const { queue } = renderPlayer();
      const row = rowOf(queue, 'Naima');
      const text = within(row).getByText('Naima');
      fireEvent.pointerDown(text, { isPrimary: true, pointerType: 'touch', clientX: 10, clientY: 10 });
      act(() => {
        vi.advanceTimersByTime(LONG_PRESS_MS / 2);
      });
      fireEvent.pointerUp(text);
      act(() => {
        vi.advanceTimersByTime(LONG_PRESS_MS);
      });
      expect(actionsOf(row)).toBe('hidden');

      // A finger that moves is scrolling.
      fireEvent.pointerDown(text, { isPrimary: true, pointerType: 'touch', clientX: 10, clientY: 10 });
      fireEvent.pointerMove(text, { isPrimary: true, pointerType: 'touch', clientX: 10, clientY: 40 });
      act(() => {
        vi.advanceTimersByTime(LONG_PRESS_MS);
      });
      expect(actionsOf(row)).toBe('hidden');

      fireEvent.pointerDown(text, { isPrimary: true, pointerType: 'touch', clientX: 10, clientY: 10 });
      act(() => {
        vi.advanceTimersByTime(LONG_PRESS_MS);
      });
      expect(actionsOf(row)).toBe('shown');
      expect(fireEvent.contextMenu(text)).toBe(false);
      fireEvent.pointerUp(text);
      fireEvent.pointerDown(within(row).getByRole('button', { name: 'Move Naima down' }), { isPrimary: true });
      expect(actionsOf(row)).toBe('shown');
      fireEvent.pointerDown(rowOf(queue, 'Giant Steps'), { isPrimary: true });
      expect(actionsOf(row)).toBe('hidden');
    } finally {
      vi.useRealTimers();
    }
  });

  it('keep the arrow-key reordering on the handle', () => {
    const { queue, nextUp } = renderPlayer();
    fireEvent.keyDown(within(queue).getByRole('button', { name: 'Reorder Giant Steps' }), { key: 'ArrowUp' });
    expect(nextUp()).toEqual(['Naima', 'Giant Steps', 'Blue in Green']);
  });
});

describe('a long queue', () => {
  const many = Array.from({ length: 3 * QUEUE_PLAIN_MAX }, (_, i) => makeSong(i + 1));
  const ownHeight = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientHeight');
  afterEach(() => {
    if (ownHeight) Object.defineProperty(HTMLElement.prototype, 'clientHeight', ownHeight);
    else Reflect.deleteProperty(HTMLElement.prototype, 'clientHeight');
  });

  it('is virtualised: only the rows in view of the queue exist, and scrolling brings the others', () => {
    // jsdom lays nothing out: the queue's scrolling body is given the height of ten rows.
    Object.defineProperty(HTMLElement.prototype, 'clientHeight', {
      configurable: true,
      get(this: HTMLElement) {
        return this.classList.contains('queue__body') ? QUEUE_ROW_HEIGHT * 10 : 0;
      },
    });
    const { queue } = renderPlayer((player) => {
      player.controls.playList(many, 0);
    });
    // Role queries are slow over hundreds of rows; the rows' labels are read directly.
    const nextUp = () =>
      [...queue.querySelectorAll('ol[aria-label="Next up"] > li')].map((item) => item.getAttribute('aria-label'));
    expect(many.length - 1).toBeGreaterThan(QUEUE_PLAIN_MAX);
    const shown = nextUp();
    expect(shown[0]).toBe('Song 2');
    expect(shown.length).toBeLessThan(40);

    const body = queue.querySelector<HTMLElement>('.queue__body');
    if (!body) throw new Error('no queue body');
    act(() => {
      body.scrollTop = QUEUE_ROW_HEIGHT * 250;
      body.dispatchEvent(new Event('scroll'));
    });
    expect(nextUp()).toContain('Song 250');
    expect(nextUp()).not.toContain('Song 2');
  });

  it('says when more songs of the list follow, and lists them once their page is there', async () => {
    let answer: (() => void) | undefined;
    mockApi({
      'likes.page': () =>
        new Promise((resolve) => {
          answer = () => {
            resolve({ items: [makeSong(3), makeSong(4)], nextCursor: null, total: 4, seed: null });
          };
        }),
    });
    const { nextUp, queue } = renderPlayer((player) => {
      player.controls.playFrom({ source: { kind: 'liked' }, songs: many.slice(0, 2), nextCursor: 'c2', index: 1 });
    });
    expect(nextUp()).toEqual([]);
    expect(within(queue).getByText(/More songs from this list follow/)).toBeInTheDocument();
    expect(within(queue).queryByText(/Nothing queued/)).toBeNull();
    await waitFor(() => {
      expect(answer).toBeDefined();
    });
    act(() => {
      answer?.();
    });
    await waitFor(() => {
      expect(nextUp()).toEqual(['Song 3', 'Song 4']);
    });
    expect(within(queue).queryByText(/More songs from this list follow/)).toBeNull();
  });
});

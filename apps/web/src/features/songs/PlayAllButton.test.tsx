import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { UiMessages } from '../../lib/ui-messages.js';
import { makeSong } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { PlayAllButton } from './SongsHeader.js';

describe('the big Play button of a list (issue 26)', () => {
  it('is disabled, saying why, while the list has nothing to play, and leaves the player alone', () => {
    mockApi({});
    const { player } = renderInApp(<PlayAllButton songs={[]} label="Play songs" />);
    const playList = vi.spyOn(player.controls, 'playList');
    const button = screen.getByRole('button', { name: 'Play songs' });
    expect(button).toBeDisabled();
    expect(button.getAttribute('title')).toBe(UiMessages.nothingToPlayYet);
    fireEvent.click(button);
    expect(playList).not.toHaveBeenCalled();
    expect(player.store.getState().playing).toBe(false);
  });

  it('plays the list from its first song once it has one', () => {
    mockApi({});
    const songs = [makeSong(1, { name: 'So What' }), makeSong(2, { name: 'Naima' })];
    const { player } = renderInApp(<PlayAllButton songs={songs} label="Play songs" />);
    const button = screen.getByRole('button', { name: 'Play songs' });
    expect(button).toBeEnabled();
    expect(button.hasAttribute('title')).toBe(false);
    fireEvent.click(button);
    expect(player.store.getState().current.name).toBe('So What');
  });
});

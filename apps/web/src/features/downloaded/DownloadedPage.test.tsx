import { act, fireEvent, screen, within } from '@testing-library/react';
import { StorageKeys } from '@tonearm/contract';
import { describe, expect, it } from 'vitest';
import { readDownloadedSongs } from '../../lib/downloaded-songs.js';
import { makeSong } from '../../test/fixtures.js';
import { renderInApp } from '../../test/render.js';
import { DownloadedPage } from './DownloadedPage.js';

describe('/dashboard/downloaded', () => {
  it('lists the `downloadedSong` list, plays it and removes songs by id', async () => {
    localStorage.setItem(
      StorageKeys.downloadedSongs,
      JSON.stringify([makeSong(2, { name: 'Naima' }), makeSong(1, { name: 'So What' })]),
    );
    const { player } = renderInApp(<DownloadedPage />, { route: '/dashboard/downloaded' });
    const list = screen.getByRole('list', { name: 'Downloaded songs' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('aria-label')),
    ).toEqual(['Naima', 'So What']);

    fireEvent.click(screen.getByRole('button', { name: 'Play downloaded songs' }));
    expect(player.store.getState().current.name).toBe('Naima');

    fireEvent.click(screen.getByRole('button', { name: 'More options for Naima' }));
    await act(async () => {
      fireEvent.click(screen.getByRole('menuitem', { name: 'Remove from downloads' }));
      await Promise.resolve();
    });
    expect(readDownloadedSongs().map((song) => song.id)).toEqual([1]);
    expect(screen.getAllByRole('listitem').map((row) => row.getAttribute('aria-label'))).toEqual(['So What']);
  });

  it('explains how to download when the list is empty', () => {
    renderInApp(<DownloadedPage />, { route: '/dashboard/downloaded' });
    expect(screen.getByText('No downloads yet')).toBeTruthy();
  });
});

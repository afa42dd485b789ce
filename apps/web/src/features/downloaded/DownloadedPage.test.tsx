import { act, fireEvent, screen, within } from '@testing-library/react';
import { StorageKeys } from '@tonearm/contract';
import { describe, expect, it, vi } from 'vitest';
import { readDownloadedSongs } from '../../lib/downloaded-songs.js';
import { offlineAudioCache } from '../../lib/offline-audio.js';
import { installFakeCaches } from '../../test/fake-caches.js';
import { makeSong } from '../../test/fixtures.js';
import { renderInApp } from '../../test/render.js';
import { DownloadedPage } from './DownloadedPage.js';

describe('/dashboard/downloaded', () => {
  it('lists the `downloadedSong` list, plays it and removes songs by id', async () => {
    localStorage.setItem('tonearm.downloadsOwner', '7');
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

  it('shows the space each download takes on this device, and their total', async () => {
    const fake = installFakeCaches();
    // The signed-in user's cache (makeUser: id 7); another user's cache is not counted.
    const cache = await caches.open(offlineAudioCache(7));
    const other = await caches.open(offlineAudioCache(8));
    await other.put('/media/audio/1.mp3', new Response('x', { headers: { 'Content-Length': '1000000' } }));
    await cache.put('/media/audio/2.mp3', new Response('x', { headers: { 'Content-Length': '2500000' } }));
    expect(fake.urls(offlineAudioCache(7))).toHaveLength(1);
    localStorage.setItem(
      StorageKeys.downloadedSongs,
      JSON.stringify([makeSong(2, { name: 'Naima' }), makeSong(1, { name: 'So What' })]),
    );
    renderInApp(<DownloadedPage />, { route: '/dashboard/downloaded' });
    expect(await screen.findByText('2 songs · 2.5 MB on this device')).toBeInTheDocument();
    const row = (name: string) => screen.getByRole('listitem', { name });
    expect(within(row('Naima')).getByText('2.5 MB')).toBeInTheDocument();
    expect(within(row('So What')).getByText('Not stored')).toBeInTheDocument();
  });

  it('stays a window of rows with thousands of downloads, reads their sizes from one opened cache, and plays them', async () => {
    installFakeCaches();
    const cache = await caches.open(offlineAudioCache(7));
    await cache.put('/media/audio/1.mp3', new Response('x', { headers: { 'Content-Length': '1000000' } }));
    await cache.put('/media/audio/2.mp3', new Response('x', { headers: { 'Content-Length': '3000000' } }));
    const songs = Array.from({ length: 3000 }, (_, i) => makeSong(i + 1, { name: `Take ${i + 1}` }));
    localStorage.setItem(StorageKeys.downloadedSongs, JSON.stringify(songs));
    const open = vi.spyOn(caches, 'open');
    const { player } = renderInApp(<DownloadedPage />, { route: '/dashboard/downloaded' });
    expect(await screen.findByText('3000 songs · 4.0 MB on this device')).toBeInTheDocument();
    expect(open).toHaveBeenCalledTimes(1);
    const rows = within(screen.getByRole('list', { name: 'Downloaded songs' })).getAllByRole('listitem');
    expect(rows.length).toBeLessThan(40);
    expect(rows[0]?.getAttribute('aria-setsize')).toBe('3000');
    expect(within(rows[1] ?? document.body).getByText('3.0 MB')).toBeInTheDocument();
    expect(within(rows[2] ?? document.body).getByText('Not stored')).toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Play downloaded songs' }));
    expect(player.store.getState().current.name).toBe('Take 1');
    fireEvent.click(within(rows[1] ?? document.body).getByRole('button', { name: 'Play Take 2' }));
    expect(player.store.getState().current.name).toBe('Take 2');
  });

  it('explains how to download when the list is empty', () => {
    renderInApp(<DownloadedPage />, { route: '/dashboard/downloaded' });
    expect(screen.getByText('No downloads yet')).toBeInTheDocument();
  });
});

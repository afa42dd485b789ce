import { fireEvent, screen, within } from '@testing-library/react';
import { FolderClientMessages as Texts, ServerMessages, type Folder } from '@tonearm/contract';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Sidebar } from '../../app/Sidebar.js';
import { errorResponse, makeSong, makeUser } from '../../test/fixtures.js';
import { mockApi } from '../../test/mock-api.js';
import { renderInApp } from '../../test/render.js';
import { flush } from '../../test/timers.js';
import { FoldersPage, folderHref } from './FoldersPage.js';

function makeFolder(overrides: Partial<Folder> = {}): Folder {
  return {
    libraryId: 3,
    libraryName: 'Music',
    path: 'Alpha',
    name: 'Alpha',
    parent: '',
    folders: [{ name: 'Album One', path: 'Alpha/Album One', songCount: 2, imgLink: '' }],
    songs: [makeSong(11, { name: 'Single' }), makeSong(12, { name: 'Second' })],
    folderCount: 1,
    songCount: 2,
    nextCursor: null,
    ...overrides,
  };
}

const renderFolders = (route: string) =>
  renderInApp(<FoldersPage />, { route, routes: { '/dashboard/folders': <FoldersPage /> } });

describe('/dashboard/folders', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lists the libraries the user sees, each a link to its root', async () => {
    mockApi({ 'folders.libraries': () => ({ libraries: [{ id: 3, name: 'Music', songCount: 412 }] }) });
    renderFolders('/dashboard/folders');
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: Texts.pageTitle })).toBeInTheDocument();
    const link = within(screen.getByRole('list', { name: Texts.pageTitle })).getByRole('link', { name: /Music/ });
    expect(link).toHaveAttribute('href', '/dashboard/folders?library=3');
    expect(link.textContent).toContain('412 songs');
  });

  it('says so when there is no library to browse', async () => {
    mockApi({ 'folders.libraries': () => ({ libraries: [] }) });
    renderFolders('/dashboard/folders');
    await flush();
    expect(screen.getByText(Texts.noLibraries)).toBeInTheDocument();
  });

  it('shows a folder: breadcrumbs, its subfolders as links, its songs as a song list', async () => {
    const api = mockApi({ 'folders.get': () => makeFolder({ path: 'Alpha/Deep', name: 'Deep', parent: 'Alpha' }) });
    renderFolders('/dashboard/folders?library=3&path=Alpha%2FDeep');
    await flush();
    const request = new URL(api.requests('folders.get')[0]?.url ?? '');
    expect(request.pathname).toBe('/api/folders/3');
    expect(request.searchParams.get('path')).toBe('Alpha/Deep');
    expect(screen.getByRole('heading', { level: 1, name: 'Deep' })).toBeInTheDocument();
    const crumbs = screen.getByRole('navigation', { name: Texts.breadcrumb });
    expect(within(crumbs).getByRole('link', { name: Texts.pageTitle })).toHaveAttribute('href', '/dashboard/folders');
    expect(within(crumbs).getByRole('link', { name: 'Music' })).toHaveAttribute('href', folderHref(3, ''));
    expect(within(crumbs).getByRole('link', { name: 'Alpha' })).toHaveAttribute('href', folderHref(3, 'Alpha'));
    expect(within(crumbs).getByText('Deep')).toHaveAttribute('aria-current', 'page');
    const sub = within(screen.getByRole('list', { name: Texts.subfolders })).getByRole('link', { name: /Album One/ });
    expect(sub).toHaveAttribute('href', '/dashboard/folders?library=3&path=Alpha%2FAlbum+One');
    const rows = within(screen.getByRole('list', { name: Texts.songs })).getAllByRole('listitem');
    expect(rows.map((row) => row.getAttribute('aria-label'))).toEqual(['Single', 'Second']);
  });

  it('"Play folder" loads the pages not shown yet and plays every song of the folder in order', async () => {
    const api = mockApi({
      'folders.get': (request) =>
        new URL(request.url).searchParams.has('cursor')
          ? makeFolder({ folders: [], songs: [makeSong(13, { name: 'Third' })], songCount: 3 })
          : makeFolder({ nextCursor: 'next', songCount: 3 }),
    });
    const view = renderFolders('/dashboard/folders?library=3&path=Alpha');
    await flush();
    expect(screen.getByRole('button', { name: Texts.showMore })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: Texts.playFolder }));
    await flush();
    expect(api.requests('folders.get')).toHaveLength(2);
    const state = view.player.store.getState();
    expect(state.queue).toEqual([11, 12, 13]);
    expect(state.current.name).toBe('Single');
    expect(state.playing).toBe(true);
    expect(screen.queryByRole('button', { name: Texts.showMore })).toBeNull();
  });

  it('answers a folder that is not there (or a hidden library) with "Folder not found" and a way back', async () => {
    mockApi({ 'folders.get': () => errorResponse(404, 'not-found', ServerMessages.notFound) });
    renderFolders('/dashboard/folders?library=3&path=Nope');
    await flush();
    expect(screen.getByRole('heading', { level: 1, name: Texts.notFound })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: Texts.backToFolders })).toHaveAttribute('href', '/dashboard/folders');
  });

  it('says an empty library root holds no songs and disables "Play folder"', async () => {
    mockApi({
      'folders.get': () =>
        makeFolder({ path: '', name: 'Music', parent: null, folders: [], songs: [], folderCount: 0, songCount: 0 }),
    });
    renderFolders('/dashboard/folders?library=3');
    await flush();
    expect(screen.getByText(Texts.empty)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: Texts.playFolder })).toBeDisabled();
  });
});

describe('the navigation’s Folders entry', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('shows for a listener while they see a library, and not without one', async () => {
    mockApi({ 'folders.libraries': () => ({ libraries: [{ id: 3, name: 'Music', songCount: 1 }] }) });
    const shown = renderInApp(<Sidebar id="nav" open={false} onClose={() => undefined} />, {
      user: makeUser({ role: 'USER' }),
    });
    await flush();
    expect(screen.getByRole('link', { name: 'Folders' })).toHaveAttribute('href', '/dashboard/folders');
    shown.unmount();

    mockApi({ 'folders.libraries': () => ({ libraries: [] }) });
    renderInApp(<Sidebar id="nav" open={false} onClose={() => undefined} />, { user: makeUser({ role: 'USER' }) });
    await flush();
    expect(screen.queryByRole('link', { name: 'Folders' })).toBeNull();
  });
});

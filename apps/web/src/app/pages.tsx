import type { QueryClient } from '@tanstack/react-query';
import { createElement, lazy, type ComponentType } from 'react';
import { readStoredUser } from '../shell/auth/stored-user.js';

/** A page's chunk, fetched by its first render or earlier by `preload` (the module loader fetches it once). */
type LazyPage = ComponentType & { preload: () => Promise<unknown> };

/**
 * React.lazy for a named export: every page is its own chunk, fetched on first visit or preloaded. A page whose chunk
 * has arrived renders at once: React.lazy would suspend on its first render all the same, and React holds a revealed
 * Suspense boundary back for a moment (up to 300 ms) to batch reveals.
 */
function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string): LazyPage {
  let loaded: ComponentType | undefined;
  let loading: Promise<ComponentType> | undefined;
  const preload = (): Promise<ComponentType> =>
    (loading ??= load().then(
      (module) => (loaded = module[name] as ComponentType),
      (error: unknown) => {
        // Asked again on the next render or preload (a chunk that failed once, offline, may load later).
        loading = undefined;
        throw error;
      },
    ));
  const Lazy = lazy(async () => ({ default: await preload() }));
  function Page() {
    return loaded === undefined ? <Lazy /> : createElement(loaded);
  }
  return Object.assign(Page, { preload });
}

export const HomePage = lazyPage(() => import('../features/landing/HomePage.js'), 'HomePage');
export const DashboardLayout = lazyPage(() => import('./DashboardLayout.js'), 'DashboardLayout');
const DashboardHomePage = lazyPage(() => import('../features/dashboard/DashboardHomePage.js'), 'DashboardHomePage');
const PlaylistPage = lazyPage(() => import('../features/playlists/PlaylistPage.js'), 'PlaylistPage');
const PaymentPage = lazyPage(() => import('../features/payment/PaymentPage.js'), 'PaymentPage');
const CreatePlaylistPage = lazyPage(() => import('../features/playlists/CreatePlaylistPage.js'), 'CreatePlaylistPage');
const SmartPlaylistPage = lazyPage(() => import('../features/playlists/SmartPlaylistPage.js'), 'SmartPlaylistPage');
const StatsPage = lazyPage(() => import('../features/stats/pages.js'), 'StatsPage');
const ServerStatsPage = lazyPage(() => import('../features/stats/pages.js'), 'ServerStatsPage');
const ArtistPage = lazyPage(() => import('../features/artists/ArtistPage.js'), 'ArtistPage');
const DownloadedPage = lazyPage(() => import('../features/downloaded/DownloadedPage.js'), 'DownloadedPage');
const UserListPage = lazyPage(() => import('../features/users/UserListPage.js'), 'UserListPage');
const SongsPage = lazyPage(() => import('./SongsPage.js'), 'SongsPage');
const AlbumPage = lazyPage(() => import('../features/albums/AlbumPage.js'), 'AlbumPage');
const LibrariesPage = lazyPage(() => import('../features/libraries/LibrariesPage.js'), 'LibrariesPage');
const FoldersPage = lazyPage(() => import('../features/folders/FoldersPage.js'), 'FoldersPage');
export const NotFoundPage = lazyPage(() => import('./NotFoundPage.js'), 'NotFoundPage');
const ArtistAddressPage = lazyPage(() => import('./ArtistAddressPage.js'), 'ArtistAddressPage');
const SearchRoutePage = lazyPage(() => import('./SearchRoutePage.js'), 'SearchRoutePage');
export const DashboardNotFoundPage = lazyPage(() => import('./DashboardNotFoundPage.js'), 'DashboardNotFoundPage');

/** The dashboard's pages by their route path below /dashboard ('' for the index, `:id` for an id segment). */
export const dashboardPages: Record<string, LazyPage> = {
  '': DashboardHomePage,
  playlist: PlaylistPage,
  payment: PaymentPage,
  'create-playlist': CreatePlaylistPage,
  'smart-playlist': SmartPlaylistPage,
  stats: StatsPage,
  'server-stats': ServerStatsPage,
  artist: ArtistPage,
  'artist/:id': ArtistAddressPage,
  downloaded: DownloadedPage,
  'user-list': UserListPage,
  songs: SongsPage,
  album: AlbumPage,
  libraries: LibrariesPage,
  folders: FoldersPage,
  search: SearchRoutePage,
};

/**
 * The route path a dashboard address would have below /dashboard/ ('' for the index; a second segment is an id, so
 * /dashboard/artist/7 is 'artist/:id'), or null for any other address. Whether a page has that path is
 * dashboardPages' to say.
 */
export function dashboardPath(pathname: string): string | null {
  const dashboard = /^\/dashboard(?:\/([^/]*)(?:\/([^/]+))?)?\/?$/.exec(pathname);
  if (dashboard === null) return null;
  const [, page = '', id] = dashboard;
  return id === undefined ? page : `${page}/:id`;
}

/**
 * Starts fetching what a dashboard page at `pathname` needs. Without it the first screen is a chain: the router's
 * chunk, the session check, then the layout's chunk, then the page's chunk, then its data. A signed-in start calls it
 * from the entry (app/App.tsx), beside the router's chunk and the session check; RequireUser calls it again as the
 * check starts (after a sign-in on the landing page). Asked twice, each chunk and the first page load once (issue 11
 * and 26: the first song row within 1.5 s).
 */
export function preloadPages(pathname: string, queryClient: QueryClient): void {
  const path = dashboardPath(pathname);
  if (path === null) return;
  // A failed preload is not an error yet: the render fetches the chunk again and shows its own error.
  for (const chunk of [DashboardLayout, dashboardPages[path]]) chunk?.preload().catch(() => undefined);
  if (path === '' || path === 'songs' || path === 'search') {
    import('../features/songs/useSongs.js').then(
      ({ prefetchCatalogue }) => {
        prefetchCatalogue(queryClient, readStoredUser());
      },
      () => undefined,
    );
  }
}

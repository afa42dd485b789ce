import { lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { RouteLoader } from '../ui/RouteLoader.js';
import { RequireUser } from './RequireUser.js';
import { RouteError } from './RouteError.js';

/** React.lazy for a named export: every page is its own chunk, fetched on first visit. */
function lazyPage<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

const HomePage = lazyPage(() => import('../features/landing/HomePage.js'), 'HomePage');
const DashboardLayout = lazyPage(() => import('./DashboardLayout.js'), 'DashboardLayout');
const DashboardHomePage = lazyPage(() => import('../features/dashboard/DashboardHomePage.js'), 'DashboardHomePage');
const PlaylistPage = lazyPage(() => import('../features/playlists/PlaylistPage.js'), 'PlaylistPage');
const PaymentPage = lazyPage(() => import('../features/payment/PaymentPage.js'), 'PaymentPage');
const CreatePlaylistPage = lazyPage(() => import('../features/playlists/CreatePlaylistPage.js'), 'CreatePlaylistPage');
const ArtistPage = lazyPage(() => import('../features/artists/ArtistPage.js'), 'ArtistPage');
const DownloadedPage = lazyPage(() => import('../features/downloaded/DownloadedPage.js'), 'DownloadedPage');
const UserListPage = lazyPage(() => import('../features/users/UserListPage.js'), 'UserListPage');
const SongsPage = lazyPage(() => import('./SongsPage.js'), 'SongsPage');
const NotFoundPage = lazyPage(() => import('./NotFoundPage.js'), 'NotFoundPage');

/** Pages load on demand with the loading animation meanwhile (SPEC §2). */
function Loading({ children }: { children: ReactNode }) {
  return <Suspense fallback={<RouteLoader />}>{children}</Suspense>;
}

/** SPEC §2 routes, exactly. Dashboard pages render inside the shell's own Suspense boundary. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      {
        path: '/',
        element: (
          <Loading>
            <HomePage />
          </Loading>
        ),
      },
      {
        path: '/dashboard',
        element: (
          <RequireUser>
            <Loading>
              <DashboardLayout />
            </Loading>
          </RequireUser>
        ),
        children: [
          { index: true, element: <DashboardHomePage /> },
          { path: 'playlist', element: <PlaylistPage /> },
          { path: 'payment', element: <PaymentPage /> },
          { path: 'create-playlist', element: <CreatePlaylistPage /> },
          { path: 'artist', element: <ArtistPage /> },
          { path: 'downloaded', element: <DownloadedPage /> },
          { path: 'user-list', element: <UserListPage /> },
          { path: 'songs', element: <SongsPage /> },
        ],
      },
      {
        path: '*',
        element: (
          <Loading>
            <NotFoundPage />
          </Loading>
        ),
      },
    ],
  },
];

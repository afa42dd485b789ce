import { SearchPage } from '../features/search/SearchPage.js';
import { LikedSongsPage } from '../features/songs/LikedSongsPage.js';
import { useSongParams } from '../features/songs/SongsToolbar.js';

/**
 * `/dashboard/search` (issue 26): the sidebar's Search, titled "Search", with the same box and Liked chip as the
 * song list at SPEC's /dashboard/songs (`?q=`, `?liked=1`).
 */
export function SearchRoutePage() {
  const params = useSongParams();
  return params.likedOnly ? <LikedSongsPage params={params} /> : <SearchPage params={params} titled="Search" />;
}

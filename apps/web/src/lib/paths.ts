/** SPEC §2 routes. */
export const Paths = {
  home: '/',
  dashboard: '/dashboard',
  playlist: '/dashboard/playlist',
  payment: '/dashboard/payment',
  createPlaylist: '/dashboard/create-playlist',
  /** Issue 28: a new smart playlist; `?edit=` edits one. */
  smartPlaylist: '/dashboard/smart-playlist',
  /** Issue 28: the listener's statistics, and the server's (administrators). */
  stats: '/dashboard/stats',
  serverStats: '/dashboard/server-stats',
  artist: '/dashboard/artist',
  downloaded: '/dashboard/downloaded',
  userList: '/dashboard/user-list',
  songs: '/dashboard/songs',
  /** Issue 12: one album, as `?id=` (like the playlist page). */
  album: '/dashboard/album',
  /** Issue 25: the administrator's music folders. */
  libraries: '/dashboard/libraries',
  /** Issue 25: the libraries by their real folders, as `?library=&path=`. */
  folders: '/dashboard/folders',
  /** Issue 26: the sidebar's Search, a page of its own (the song list stays at SPEC's /dashboard/songs). */
  search: '/dashboard/search',
} as const;

/** Issue 26: one artist's own address, `/dashboard/artist/:id` (shareable; SPEC's /dashboard/artist stays the list). */
export function artistHref(artistId: number): string {
  return `${Paths.artist}/${String(artistId)}`;
}

/** SPEC §2 routes. */
export const Paths = {
  home: '/',
  dashboard: '/dashboard',
  playlist: '/dashboard/playlist',
  payment: '/dashboard/payment',
  createPlaylist: '/dashboard/create-playlist',
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
} as const;

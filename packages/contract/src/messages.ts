/**
 * Every user-facing text of the product. SPEC §8 strings are reproduced exactly; the server texts are the
 * `text/plain` answers DESIGN §4 names. Tests import these constants instead of repeating the strings.
 */
export const ClientMessages = {
  errorFetchingArtists: 'Error fetching artists',
  errorFetchingSongs: 'Error fetching songs. Please try again later.',
  uploadBothFiles: 'Please upload both song and image files.',
  failedToAddSong: 'Failed to add song',
  errorAddingSong: 'Error adding song',
  failedToFetchPlaylists: 'Failed to fetch playlists',
  failedToLoadPlaylists: 'Failed to load playlists.',
  selectPlaylist: 'Please select a playlist.',
  failedToAddSongToPlaylist: 'Failed to add song to playlist.',
  songNotDeleted: 'Song not deleted',
  playlistNotFound: 'Playlist Not Found',
  selectPlaylistTitle: 'Select a Playlist',
  playlistPlus: 'Playlist +',
} as const;

export const ServerMessages = {
  userRegistered: 'User registered successfully',
  usernameTaken: 'Username already taken',
  emailTaken: 'Email already registered',
  invalidCredentials: 'Invalid username or password',
  notAuthenticated: 'Please log in to continue',
  forbidden: 'You do not have permission to do that',
  notFound: 'Not found',
  rateLimited: 'Too many attempts. Please wait a minute and try again.',
  badOrigin: 'Cross-site request refused',
  accountLocked: 'Too many failed sign-ins for this account. Please wait 15 minutes and try again.',
  internalError: 'Something went wrong on our side. Please try again.',
  lastAdmin: 'The last administrator cannot be removed or demoted',
  wrongCurrentPassword: 'Current password is incorrect',
  onlyAdminChangesRole: 'Only an administrator can change roles or premium',
  pong: 'pong',
  songAdded: 'Song added successfully',
  songUpdated: 'Song updated successfully',
  songDeleted: 'Song deleted successfully',
  songExists: 'This audio file is already in the catalogue',
  uploadBothFiles: ClientMessages.uploadBothFiles,
  artistNotFound: 'Artist not found',
  artistExists: 'An artist with this name already exists',
  songAddedToPlaylist: 'Song added to playlist',
  songAlreadyInPlaylist: 'Song already in playlist',
  songRemovedFromPlaylist: 'Song removed from playlist',
  premiumRequired: 'Downloads are a Premium feature. Upgrade on the payment page to download songs.',
  cardDeclined: 'Your card was declined. No payment was taken.',
  invalidSignature: 'Invalid webhook signature',
  referenceGone: 'Something this refers to was just deleted. Reload and try again.',
} as const;

/** Shown where an artist was deleted but its songs remain. */
export const UNKNOWN_ARTIST = 'Unknown artist';

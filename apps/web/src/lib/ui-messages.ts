/**
 * Texts of the web app that neither SPEC nor the server defines (SPEC and server texts come from
 * @tonearm/contract). Kept here so components and tests share one spelling.
 */
export const UiMessages = {
  /** Issue 12: the album page's "Add album to playlist". */
  albumAddedToPlaylist: (added: number, alreadyThere: number) =>
    added === 0
      ? 'Every song of the album is already in the playlist'
      : `Added ${added} ${added === 1 ? 'song' : 'songs'} to the playlist` +
        (alreadyThere === 0 ? '' : ` (${alreadyThere} already there)`),
  albumNotFound: 'This album is not in the catalogue.',
  albumCoverUpdated: 'Album cover updated',
  failedToUpdateAlbumCover: 'Failed to update the album cover',
  albumUpdated: 'Album updated',
  failedToUpdateAlbum: 'Failed to update the album',
  albumUnavailable: 'The album could not be loaded.',
  /** Issue 26: /dashboard/artist/:id with an id nobody has. */
  artistNotFound: 'This artist is not in the catalogue.',
  artistUnavailable: 'The artist could not be loaded.',
  /** Issue 26: why a list's big Play button is disabled. */
  nothingToPlayYet: 'Nothing to play yet',
  playbackFailed: (songName: string) => `Could not play “${songName}”.`,
  downloaded: (songName: string) => `“${songName}” is downloaded`,
  downloadFailed: 'Download failed',
  removedDownload: (songName: string) => `Removed “${songName}” from downloads`,
  confirmDelete: (songName: string) => `Delete “${songName}”? This cannot be undone.`,
  playlistCreated: (name: string) => `Playlist “${name}” created`,
  failedToCreatePlaylist: 'Failed to create playlist',
  failedToRemoveFromPlaylist: 'Failed to remove song from playlist',
  failedToDeletePlaylist: 'Failed to delete playlist',
  confirmDeletePlaylist: (name: string) => `Delete the playlist “${name}”? Its songs stay in the catalogue.`,
  artistCreated: (name: string) => `Artist “${name}” added`,
  failedToCreateArtist: 'Failed to add artist',
  loginFailed: 'Could not log in. Please try again.',
  registerFailed: 'Could not create the account. Please try again.',
  emptySongs: 'No songs here yet.',
  songsUnavailable: 'Songs could not be loaded.',
  failedToLoadUsers: 'Failed to load users',
  failedToLoadPlans: 'Failed to load plans',
  checkoutFailed: 'Checkout failed',
  paymentFailed: 'Payment failed',
  premiumActive: 'Welcome to Premium! Your songs now load as soon as you log in.',
  likeFailed: 'Could not update your liked songs',
  /** Issue 28: a rating the server refused; the stars go back to what they were. */
  ratingFailed: 'Could not save your rating',
  premiumGranted: (username: string) => `Premium granted to ${username}`,
  premiumRevoked: (username: string) => `Premium revoked from ${username}`,
  roleChanged: (username: string, role: string) =>
    `${username} is now ${role === 'ADMIN' ? 'an administrator' : 'a regular user'}`,
  userDeleted: (username: string) => `Deleted the account ${username}`,
  failedToUpdateUser: 'Failed to update user',
  failedToDeleteUser: 'Failed to delete user',
  confirmDeleteUser: (username: string) =>
    `Delete the account “${username}”? Their playlists, likes and listening history go with it.`,
  profileUpdated: 'Profile updated',
  passwordChanged: 'Password changed',
  photoUpdated: 'Profile photo updated',
  photoRemoved: 'Profile photo removed',
  failedToUpdateProfile: 'Failed to update profile',
  failedToChangePassword: 'Failed to change password',
  failedToUpdatePhoto: 'Failed to update photo',
  confirmDeleteAccount: 'Delete your account? Your playlists, likes and listening history are removed for good.',
  accountDeleted: 'Your account was deleted',
  failedToDeleteAccount: 'Failed to delete account',
  playlistUpdated: (name: string) => `Playlist “${name}” saved`,
  failedToUpdatePlaylist: 'Failed to save playlist',
  failedToReorderPlaylist: 'Failed to reorder playlist',
  searchFailed: 'Search failed',
} as const;

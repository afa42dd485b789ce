/**
 * Texts of the web app that neither SPEC nor the server defines (SPEC and server texts come from
 * @tonearm/contract). Kept here so components and tests share one spelling.
 */
export const UiMessages = {
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
  adminOnly: 'Only administrators can see this page.',
} as const;

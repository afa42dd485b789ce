/**
 * Limits on what one user can create (issue 9: safe by default). The numbers are server configuration (see
 * docs/configuration.md); these are the messages a refusal carries, naming the limit.
 */

const MIB = 1024 * 1024;

/** Megabytes as a person writes them: 200, 0.5. */
function megabytes(bytes: number): string {
  return `${Number((bytes / MIB).toFixed(1))} MB`;
}

/** Megapixels as a person writes them: 40, 0.1. */
function megapixels(pixels: number): string {
  return `${Number((pixels / 1_000_000).toFixed(1))}`;
}

/** The rolling window of the daily image allowance. */
export const IMAGE_QUOTA_WINDOW_HOURS = 24;
/** Checkouts older than this no longer count as unfinished (Stripe Checkout sessions live at most 24 hours). */
export const PENDING_ORDER_WINDOW_HOURS = 24;

export const LimitMessages = {
  imageUploadsPerDay: (max: number) =>
    `You can upload at most ${max} images in ${IMAGE_QUOTA_WINDOW_HOURS} hours. Please try again later.`,
  imageBytesPerDay: (maxBytes: number) =>
    `You can upload at most ${megabytes(maxBytes)} of images in ${IMAGE_QUOTA_WINDOW_HOURS} hours. Please try again later.`,
  playlistsPerUser: (max: number) => `You can have at most ${max} playlists. Delete one to create another.`,
  pendingOrdersPerUser: (max: number) =>
    `You already have ${max} unfinished checkouts. Complete one, or try again in ${PENDING_ORDER_WINDOW_HOURS} hours.`,
  tooManyUploads: 'Too many uploads. Please wait a minute and try again.',
  tooManyCheckouts: 'Too many checkouts. Please wait a minute and try again.',
  imagesBusy: 'The server is busy processing other images. Please try again in a moment.',
  tooManyPixels: (maxPixels: number) => `Images can be at most ${megapixels(maxPixels)} megapixels`,
} as const;

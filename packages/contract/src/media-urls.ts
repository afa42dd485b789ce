import type { ThumbnailWidth } from './constants.js';

/*
 * Where this server serves stored media (DESIGN §4: a song's `link`, and every `imgLink`/`image`, are URL paths on this
 * server). The one builder of those URLs, for the server (which writes them into answers) and the web app (which
 * recognises them, asks for a thumbnail width, and keeps them offline). Relative to the origin, so they work behind
 * any host name; keys are content hashes, so a URL never changes meaning.
 */

/** The path under which a song's audio is served: `/media/audio/<key>` (`?format=&bitrate=` for a conversion). */
export const MEDIA_AUDIO_PATH = '/media/audio/';
/** The path under which images are served: `/media/images/<key>` (`?w=` for a thumbnail width). */
export const MEDIA_IMAGES_PATH = '/media/images/';

/**
 * A blob key as it stands in a URL path. Keys are made of `a-z0-9._-` (the server's blob-key rule), which this leaves
 * as they are: every URL stays the same; anything else would be escaped rather than change the path.
 */
function keyInPath(key: string): string {
  return encodeURIComponent(key);
}

/** The URL path of a song's audio (what `Song.link` holds). */
export function audioUrl(audioKey: string): string {
  return `${MEDIA_AUDIO_PATH}${keyInPath(audioKey)}`;
}

/** The URL path of an image (what `imgLink`/`image` hold); with a width, that thumbnail (640 px when none is asked). */
export function imageUrl(imageKey: string, width?: ThumbnailWidth): string {
  const path = `${MEDIA_IMAGES_PATH}${keyInPath(imageKey)}`;
  return width === undefined ? path : `${path}?w=${String(width)}`;
}

/** Whether a link (a path, maybe with a query) is stored audio on this server. */
export function isAudioUrl(link: string): boolean {
  return link.startsWith(MEDIA_AUDIO_PATH);
}

/** Whether a link (a path, maybe with a query) is a stored image on this server (and so has thumbnails). */
export function isImageUrl(link: string): boolean {
  return link.startsWith(MEDIA_IMAGES_PATH);
}

/** Whether a path is stored media of either kind (what the service worker serves from its cache). */
export function isMediaUrl(link: string): boolean {
  return isAudioUrl(link) || isImageUrl(link);
}

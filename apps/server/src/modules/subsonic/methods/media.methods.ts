import {
  SubsonicMessages,
  THUMBNAIL_WIDTHS,
  TRANSCODE_BITRATE_DEFAULT,
  TRANSCODE_BITRATE_MAX,
  TRANSCODE_BITRATE_MIN,
  TRANSCODE_FORMATS,
  type TranscodeFormat,
} from '@tonearm/contract';
import type { SessionViewer } from '../../../http/session.js';
import { sendDownload } from '../../downloads/downloads.routes.js';
import { IMAGE_CACHE_CONTROL } from '../../../media/blob-response.js';
import { mimeForKey } from '../../../media/media.formats.js';
import { imageKeyFor } from '../../../media/blob-keys.js';
import { sendBlob, sendingOf } from '../../../media/send-blob.js';
import type { TranscodeWish } from '../../media/transcode-query.js';
import { MediaError } from '../../media/media-error.js';
import { BUSY_RETRY_AFTER_SECONDS } from '../../media/transcode-response.js';
import { SubsonicRateLimited } from '../subsonic.response.js';
import { idOfKind, parseSubsonicId } from '../subsonic-ids.js';
import {
  intParam,
  notFoundError,
  requiredParam,
  SENT,
  subsonicFail,
  type MethodTable,
  type SubsonicAnswer,
} from '../subsonic-method.js';
import type { SubsonicParams } from '../subsonic-params.js';
import type { SubsonicDeps } from '../subsonic-deps.js';

/**
 * What `maxBitRate` alone asks for when the original is above it (or its bit rate is unknown): MP3, which every
 * Subsonic app plays (Opus is not understood by some older ones).
 */
export const BITRATE_LIMIT_FORMAT: TranscodeFormat = 'mp3';

const coverNotFound = () => subsonicFail('notFound', SubsonicMessages.coverArtNotFound);

/**
 * A refusal of the /media handler as a Subsonic error, answered in the envelope: its blob gone is 70, every
 * transcoding slot taken is error 0 with HTTP 503 and Retry-After (as /media answers it), anything else error 0 with
 * its message (ffmpeg cannot convert the file).
 */
function inEnvelope(error: unknown): unknown {
  if (!(error instanceof MediaError)) return error;
  if (error.status === 404) return notFoundError('Song');
  if (error.status === 503) {
    return new SubsonicRateLimited(
      error.message,
      Number(error.headers['retry-after'] ?? BUSY_RETRY_AFTER_SECONDS),
      503,
    );
  }
  return subsonicFail('generic', error.message);
}

/** A song id (`id`), or error 70 for one that cannot name a song. */
function songIdParam(params: SubsonicParams): number {
  const id = idOfKind(requiredParam(params, 'id'), 'song');
  if (id === null) throw notFoundError('Song');
  return id;
}

/** What stream is asked for: a format (null: none asked), and a bit rate limit (0: none). */
interface StreamRequest {
  format: TranscodeFormat | 'raw' | null;
  maxBitRate: number;
}

/** `stream`'s `format` (absent or `raw`: the original; mp3, opus; anything else error 0) and `maxBitRate` (0 = none). */
function streamRequest(params: SubsonicParams): StreamRequest {
  const raw = params.get('format');
  const format = raw === undefined ? null : raw === 'raw' ? 'raw' : TRANSCODE_FORMATS.find((known) => known === raw);
  if (format === undefined) throw subsonicFail('generic', SubsonicMessages.badStreamFormat(raw ?? ''));
  return { format, maxBitRate: intParam(params, 'maxBitRate', 0, 0, 100_000) };
}

/** `timeOffset`: seconds (a fraction to the ms), absent or 0 for the start; anything else is error 0. */
function offsetParam(params: SubsonicParams): number {
  const raw = params.get('timeOffset');
  if (raw === undefined) return 0;
  if (!/^\d{1,9}(\.\d{1,3})?$/.test(raw)) throw subsonicFail('generic', SubsonicMessages.badTimeOffset);
  return Math.round(Number(raw) * 1000);
}

/** A bit rate within what the transcoder takes. */
const clampBitrate = (kbps: number): number => Math.min(TRANSCODE_BITRATE_MAX, Math.max(TRANSCODE_BITRATE_MIN, kbps));

const LARGEST_THUMBNAIL = THUMBNAIL_WIDTHS[THUMBNAIL_WIDTHS.length - 1];

/** The stored thumbnail width for `size` (0: none asked): the smallest at least that wide, else the largest. */
function thumbnailWidth(size: number) {
  if (size === 0) return LARGEST_THUMBNAIL;
  return THUMBNAIL_WIDTHS.find((width) => width >= size) ?? LARGEST_THUMBNAIL;
}

/**
 * Media: `stream`, `download` and `getCoverArt` answer bytes, through the code the web app's media go through (the
 * /media handler with its transcoder, the download route's policy and answer, the image thumbnails), so Range,
 * conditional requests and caching headers are the same. Only a missing item is answered in the envelope (70).
 */
export function mediaMethods(deps: SubsonicDeps): MethodTable {
  const { subsonicMedia: media } = deps;

  /**
   * What to transcode to, or null for the original: always for `raw`; for no format unless `maxBitRate` is below the
   * original's (or its rate is unknown); for a format the original already has when it is within `maxBitRate`.
   */
  async function conversionOf(
    { format, maxBitRate }: StreamRequest,
    song: { id: number; audioKey: string },
  ): Promise<TranscodeWish | null> {
    if (format === 'raw') return null;
    const withinLimit = async () => {
      if (maxBitRate === 0) return true;
      const original = await media.bitrateOf(song.id);
      return original !== null && original <= maxBitRate;
    };
    if (format !== null) {
      if (song.audioKey.endsWith(`.${format}`) && (await withinLimit())) return null;
      return { format, bitrate: maxBitRate === 0 ? TRANSCODE_BITRATE_DEFAULT : clampBitrate(maxBitRate) };
    }
    if (await withinLimit()) return null;
    return { format: BITRATE_LIMIT_FORMAT, bitrate: clampBitrate(maxBitRate) };
  }

  /**
   * What stream sends: the conversion asked for, from `timeOffset` on (OpenSubsonic transcodeOffset). A song that
   * would go out as it is gets converted too when it must start later (the original's bytes cannot start at a time):
   * to its own format when the transcoder makes it, else to mp3, at the original's rate (within 64–320) unless
   * `maxBitRate` says otherwise. `raw` is the original, from its start, whatever the offset; so is any song on a server
   * without ffmpeg (which then does not list transcodeOffset).
   */
  async function streamWish(
    params: SubsonicParams,
    song: { id: number; audioKey: string },
  ): Promise<TranscodeWish | null> {
    const asked = streamRequest(params);
    const offsetMs = offsetParam(params);
    const conversion = await conversionOf(asked, song);
    if (offsetMs === 0 || !deps.transcoding || asked.format === 'raw') return conversion;
    if (conversion !== null) return { ...conversion, offsetMs };
    const own = TRANSCODE_FORMATS.find((known) => song.audioKey.endsWith(`.${known}`));
    const bitrate =
      asked.maxBitRate !== 0 ? asked.maxBitRate : ((await media.bitrateOf(song.id)) ?? TRANSCODE_BITRATE_DEFAULT);
    return { format: own ?? BITRATE_LIMIT_FORMAT, bitrate: clampBitrate(bitrate), offsetMs };
  }

  /** The stored image key of what `id` names (`N` a song, `al-N`, `ar-N`, `pl-N`), as the caller may see it. */
  async function imageKeyOf(user: SessionViewer, id: string): Promise<string | null> {
    const parsed = parseSubsonicId(id);
    if (parsed === null) throw coverNotFound();
    switch (parsed.kind) {
      case 'song':
        return (await deps.songs.get(user, parsed.id)).row.image_key;
      case 'album': {
        // An album without a cover of its own shows its first track's picture; a placeholder album (an artist's songs
        // without an album, issue 25) does not: its tracks have nothing in common.
        const { album, listing } = await deps.albums.get(user, parsed.id);
        if (album.image_key !== null || album.is_placeholder === 1) return album.image_key;
        return listing.rows.find((row) => row.image_key !== null)?.image_key ?? null;
      }
      case 'artist':
        return (await deps.artists.get(parsed.id, user.hiddenLibraries)).image_key;
      case 'playlist':
        return (await deps.playlists.get(user, parsed.id)).row.image_key;
    }
  }

  return {
    stream: {
      run: async ({ params, caller, request, reply }): Promise<SubsonicAnswer> => {
        const id = songIdParam(params);
        const { row } = await deps.songs.get(caller.user, id);
        const wish = await streamWish(params, { id, audioKey: row.audio_key });
        if (deps.media === null) throw notFoundError('Song');
        // A file ffmpeg cannot convert: the original when only maxBitRate asked for a conversion (the app plays it, if
        // at a higher rate); error 0 when the app asked for a format. The reply is hijacked only once bytes go out.
        const unconvertible = streamRequest(params).format === null ? 'original' : 'reject';
        try {
          await deps.media.serveAudio(request.raw, reply.raw, request.id, row.audio_key, wish, {
            unconvertible,
            refusals: 'reject',
            beforeHead: () => {
              reply.hijack();
            },
          });
        } catch (error) {
          throw inEnvelope(error);
        }
        return SENT;
      },
    },
    download: {
      run: async ({ params, caller, request, reply }): Promise<SubsonicAnswer> => {
        const id = songIdParam(params);
        await sendDownload(request, reply, await deps.downloads.download(caller.user, id), deps.meters.streams);
        return SENT;
      },
    },
    getCoverArt: {
      run: async ({ params, caller, request, reply }): Promise<SubsonicAnswer> => {
        const id = requiredParam(params, 'id');
        const size = intParam(params, 'size', 0, 0, 100_000);
        const original = await imageKeyOf(caller.user, id);
        // Originals are never served (they may carry EXIF): no size means the largest thumbnail.
        const key = original === null ? null : imageKeyFor(original, thumbnailWidth(size));
        const source = key === null || deps.sources === null ? null : deps.sources.imageOf(key);
        const stat = source === null ? null : await source.statCached();
        if (key === null || source === null || stat === null) throw coverNotFound();
        await sendBlob(request, reply, {
          ...sendingOf(source, deps.offload),
          key,
          size: stat.size,
          mtimeMs: stat.mtimeMs,
          mime: mimeForKey(key),
          cacheControl: IMAGE_CACHE_CONTROL,
        });
        return SENT;
      },
    },
  };
}

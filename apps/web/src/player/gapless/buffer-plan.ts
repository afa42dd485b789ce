/**
 * When the gapless stream appends and what it lets go (pure; gapless-chain.ts applies it): data is fetched only while
 * less than BUFFER_AHEAD_SECONDS lies ahead of the playhead, and what is more than BUFFER_BEHIND_SECONDS behind it is
 * removed, so memory stays bounded (about 40 s of FLAC, some 5 MB) whatever the songs' length.
 */
export const BUFFER_AHEAD_SECONDS = 30;
export const BUFFER_BEHIND_SECONDS = 10;
/** The next song is appended once the current one's data is all in and it is this close to its end. */
export const FOLLOW_LEAD_SECONDS = BUFFER_AHEAD_SECONDS;

export interface Range {
  start: number;
  end: number;
}

/** Whether to read and append more: the buffered end is less than BUFFER_AHEAD_SECONDS past the playhead. */
export function wantsMore(bufferedEnd: number, playhead: number): boolean {
  return bufferedEnd - playhead < BUFFER_AHEAD_SECONDS;
}

/** The range to remove behind the playhead, or null when nothing is old enough (removing costs a buffer update). */
export function staleRange(buffered: readonly Range[], playhead: number): Range | null {
  const first = buffered[0];
  const cut = playhead - BUFFER_BEHIND_SECONDS;
  if (first === undefined || first.start >= cut - 1) return null;
  return { start: first.start, end: cut };
}

/** A track of the stream: where it starts in media time, and the song position that plays there. */
export interface TimelineTrack<S> {
  song: S;
  /** Media time (the element's currentTime) at which the song starts. */
  start: number;
  /** The song's position at `start` (seconds; more than 0 after a seek past what was buffered). */
  from: number;
}

/** The index of the track playing at media time `time` (the last one starting at or before it; 0 before any). */
export function trackIndexAt<S>(tracks: readonly TimelineTrack<S>[], time: number): number {
  let index = 0;
  tracks.forEach((track, at) => {
    if (track.start <= time) index = at;
  });
  return index;
}

/**
 * The song position at media time `time` within `track`. Before the playhead reaches the track's start (a stream
 * fetched from an offset, before the element has moved there) it is the position the track starts from.
 */
export function songPosition<S>(track: TimelineTrack<S>, time: number): number {
  return time < track.start ? track.from : time - track.start + track.from;
}

/** Whether a seek to song position `seconds` in `track` lands in buffered media (then no new fetch is needed). */
export function seekTarget<S>(track: TimelineTrack<S>, seconds: number, buffered: readonly Range[]): number | null {
  if (seconds < track.from) return null;
  const time = track.start + seconds - track.from;
  return buffered.some((range) => range.start <= time && time < range.end - 0.05) ? time : null;
}

/** The gapless stream of a song's audio link, from `offsetSeconds` on. */
export function gaplessLink(link: string, offsetSeconds = 0): string {
  const offset = Math.round(offsetSeconds * 1000);
  return `${link}?format=gapless${offset > 0 ? `&offset=${offset}` : ''}`;
}

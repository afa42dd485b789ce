import { GAPLESS_MIME, type Song } from '@tonearm/contract';
import {
  FOLLOW_LEAD_SECONDS,
  gaplessLink,
  seekTarget,
  songPosition,
  staleRange,
  trackIndexAt,
  wantsMore,
  type Range,
  type TimelineTrack,
} from './buffer-plan.js';

/** How often a waiting stream looks again at the playhead (it waits for room ahead, or for the song's end to near). */
const POLL_MS = 200;

export interface ChainHooks {
  /** The playhead crossed into the next song the chain appended (gaplessly). */
  onTrackChange: (song: Song) => void;
  /** The first song's stream could not be had or played (no MSE for it, no transcoder): play it the old way. */
  onFail: (song: Song, position: number, serverCannot: boolean) => void;
}

/** Whether this browser can play the gapless stream (Media Source Extensions taking FLAC in MP4). */
export function gaplessSupported(): boolean {
  return typeof MediaSource !== 'undefined' && MediaSource.isTypeSupported(GAPLESS_MIME);
}

type Streamed = 'done' | 'failed' | 'stopped' | 'refused';

function rangesOf(buffered: TimeRanges): Range[] {
  const ranges: Range[] = [];
  for (let index = 0; index < buffered.length; index += 1) {
    ranges.push({ start: buffered.start(index), end: buffered.end(index) });
  }
  return ranges;
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function updated(buffer: SourceBuffer): Promise<void> {
  return new Promise((resolve, reject) => {
    const done = () => {
      buffer.removeEventListener('error', failed);
      resolve();
    };
    const failed = () => {
      buffer.removeEventListener('updateend', done);
      reject(new Error('SourceBuffer update failed'));
    };
    buffer.addEventListener('updateend', done, { once: true });
    buffer.addEventListener('error', failed, { once: true });
  });
}

/**
 * One <audio> element fed by Media Source Extensions (docs/design.md, "Gapless playback"): each song's gapless stream
 * (`?format=gapless`, FLAC in fragmented MP4 whose encoder delay and padding the server trimmed) is appended to one
 * SourceBuffer in 'sequence' mode, the next song's right after the current one's last sample, so the element plays
 * them as one recording. Appends wait while BUFFER_AHEAD_SECONDS lie ahead, and what is well behind the playhead is
 * removed, so memory stays bounded. A seek outside what is held starts the song's stream anew from there (`offset`).
 */
export class GaplessChain {
  private tracks: TimelineTrack<Song>[] = [];
  private generation = 0;
  private buffer: SourceBuffer | null = null;
  private source: MediaSource | null = null;
  private url: string | null = null;
  /** The song to append after the current one: undefined until the player says, null for none. */
  private following: Song | null | undefined = undefined;
  private boundary: ReturnType<typeof setTimeout> | null = null;
  private handedOver: number | null = null;

  constructor(
    readonly element: HTMLAudioElement,
    private readonly hooks: ChainHooks,
  ) {
    element.addEventListener('timeupdate', this.checkBoundary);
    element.addEventListener('play', this.checkBoundary);
    element.addEventListener('seeked', this.checkBoundary);
  }

  /** True while this chain drives its element. */
  get active(): boolean {
    return this.tracks.length > 0;
  }

  /** The song playing now, if the chain drives the element. */
  get song(): Song | null {
    return this.tracks[0]?.song ?? null;
  }

  /** The position in the current song. */
  position(): number {
    const track = this.tracks[0];
    return track === undefined ? this.element.currentTime : songPosition(track, this.element.currentTime);
  }

  /**
   * True once, right after the chain moved on to `song` by itself: the player then only catches up (no reload).
   */
  takeHandover(song: Song): boolean {
    if (this.handedOver === null || this.handedOver !== song.id || this.song?.id !== song.id) return false;
    this.handedOver = null;
    return true;
  }

  /** What to append after the current song (null: nothing; the element then ends with it). */
  follow(song: Song | null): void {
    this.following = song;
  }

  /** Plays `song` from `position` seconds: a new MediaSource, the song's stream fetched from there. */
  load(song: Song, position: number, play: boolean): void {
    this.stop();
    const generation = this.generation;
    // The stream from `position` is placed at media time `position` (timestampOffset, in run()), so the element's
    // currentTime is the song's position, as with a plain element.
    this.tracks = [{ song, start: position, from: position }];
    const source = new MediaSource();
    this.source = source;
    this.url = URL.createObjectURL(source);
    this.element.src = this.url;
    source.addEventListener(
      'sourceopen',
      () => {
        if (generation !== this.generation) return;
        void this.run(generation, source, song, position);
        if (play) this.element.play().catch(() => undefined);
      },
      { once: true },
    );
  }

  /**
   * Play after the stream ended (the last song played out): the song starts over from its own start, as a plain
   * element does, rather than from the start of the whole stream. True when it did.
   */
  restartIfEnded(): boolean {
    const song = this.song;
    if (song === null || !this.element.ended) return false;
    this.load(song, 0, true);
    return true;
  }

  /** Seeks within the current song: in what is held, or by loading its stream from there. */
  seek(seconds: number): void {
    const track = this.tracks[0];
    if (track === undefined) return;
    const held = this.buffer === null ? [] : rangesOf(this.buffer.buffered);
    const time = seekTarget(track, seconds, held);
    if (time !== null) {
      this.element.currentTime = time;
      return;
    }
    this.load(track.song, seconds, !this.element.paused);
  }

  /** Lets the element go (another song plays the old way, or the player closes). */
  stop(): void {
    this.generation += 1;
    this.tracks = [];
    this.buffer = null;
    this.handedOver = null;
    this.clearBoundary();
    if (this.url !== null) {
      URL.revokeObjectURL(this.url);
      this.url = null;
    }
    this.source = null;
  }

  dispose(): void {
    this.stop();
    this.element.removeEventListener('timeupdate', this.checkBoundary);
    this.element.removeEventListener('play', this.checkBoundary);
    this.element.removeEventListener('seeked', this.checkBoundary);
  }

  private readonly checkBoundary = (): void => {
    if (this.tracks.length < 2) return;
    const index = trackIndexAt(this.tracks, this.element.currentTime);
    if (index > 0) {
      this.tracks = this.tracks.slice(index);
      const song = this.tracks[0]?.song;
      if (song !== undefined) {
        this.handedOver = song.id;
        this.hooks.onTrackChange(song);
      }
    }
    this.armBoundary();
  };

  /** A timer for the exact moment the next song starts (timeupdate comes only every quarter second or so). */
  private armBoundary(): void {
    this.clearBoundary();
    const next = this.tracks[1];
    if (next === undefined || this.element.paused) return;
    const wait = ((next.start - this.element.currentTime) * 1000) / (this.element.playbackRate || 1);
    this.boundary = setTimeout(this.checkBoundary, Math.max(0, wait));
  }

  private clearBoundary(): void {
    if (this.boundary !== null) clearTimeout(this.boundary);
    this.boundary = null;
  }

  private async run(generation: number, source: MediaSource, first: Song, position: number): Promise<void> {
    let buffer: SourceBuffer;
    try {
      buffer = source.addSourceBuffer(GAPLESS_MIME);
      buffer.mode = 'sequence';
      // In 'sequence' mode this is where the first appended frame goes; the songs that follow come right after it.
      buffer.timestampOffset = position;
    } catch {
      this.fail(generation, first, position, false);
      return;
    }
    this.buffer = buffer;
    let song = first;
    let from = position;
    for (;;) {
      const streamed = await this.stream(generation, buffer, song, from, from > 0);
      if (streamed === 'stopped') return;
      if (streamed === 'failed' || streamed === 'refused') {
        if (song === first) {
          this.fail(generation, first, position, streamed === 'refused');
          return;
        }
        // A following song that could not be had: the current one ends, and the player loads that one itself.
        this.tracks = this.tracks.filter((track) => track.song !== song);
      }
      const next = await this.nextSong(generation, buffer, source);
      if (next === null) return;
      this.tracks.push({ song: next, start: this.bufferedEnd(buffer), from: 0 });
      this.armBoundary();
      song = next;
      from = 0;
    }
  }

  private fail(generation: number, song: Song, position: number, serverCannot: boolean): void {
    if (generation !== this.generation) return;
    this.stop();
    this.hooks.onFail(song, position, serverCannot);
  }

  /** Fetches one song's stream and appends it as room ahead allows. */
  private async stream(
    generation: number,
    buffer: SourceBuffer,
    song: Song,
    from: number,
    moveHead: boolean,
  ): Promise<Streamed> {
    let response: Response;
    try {
      response = await fetch(gaplessLink(song.link, from), { credentials: 'same-origin' });
    } catch {
      return generation === this.generation ? 'failed' : 'stopped';
    }
    if (generation !== this.generation) return 'stopped';
    // A server without ffmpeg answers `?format=` with the original file: not something to append.
    const type = response.headers.get('content-type') ?? '';
    if (!response.ok || response.body === null) return 'failed';
    if (!type.startsWith('audio/mp4')) return 'refused';
    const reader = response.body.getReader();
    try {
      for (;;) {
        await this.roomAhead(generation, buffer);
        if (generation !== this.generation) return 'stopped';
        const { done, value } = await reader.read();
        if (done) return 'done';
        if (generation !== this.generation) return 'stopped';
        await this.append(generation, buffer, value);
        // The element starts at 0; once the first data is in, it moves to where the stream begins.
        if (moveHead && generation === this.generation && this.bufferedEnd(buffer) > from) {
          moveHead = false;
          if (this.element.currentTime < from) this.element.currentTime = from;
        }
      }
    } catch {
      return generation === this.generation ? 'failed' : 'stopped';
    } finally {
      reader.cancel().catch(() => undefined);
    }
  }

  private bufferedEnd(buffer: SourceBuffer): number {
    const { buffered } = buffer;
    return buffered.length === 0 ? 0 : buffered.end(buffered.length - 1);
  }

  /** Waits while enough lies ahead of the playhead, letting go of what is far behind it. */
  private async roomAhead(generation: number, buffer: SourceBuffer): Promise<void> {
    while (generation === this.generation) {
      await this.removeStale(buffer);
      if (wantsMore(this.bufferedEnd(buffer), this.element.currentTime)) return;
      await sleep(POLL_MS);
    }
  }

  private async removeStale(buffer: SourceBuffer): Promise<void> {
    const stale = staleRange(rangesOf(buffer.buffered), this.element.currentTime);
    if (stale === null || buffer.updating) return;
    buffer.remove(stale.start, stale.end);
    await updated(buffer);
  }

  private async append(generation: number, buffer: SourceBuffer, data: Uint8Array): Promise<void> {
    for (;;) {
      try {
        buffer.appendBuffer(data as Uint8Array<ArrayBuffer>);
        await updated(buffer);
        return;
      } catch (error) {
        // The browser's quota for this buffer is full: wait for the playhead to move on, drop what is behind, retry.
        if (!(error instanceof DOMException && error.name === 'QuotaExceededError')) throw error;
        if (generation !== this.generation) return;
        await sleep(POLL_MS);
        await this.removeStale(buffer);
      }
    }
  }

  /**
   * Once the current song is all appended and nears its end: the song to follow, or null after ending the stream (the
   * element then ends as usual). A song the player names later, while this one still plays, is appended then.
   */
  private async nextSong(generation: number, buffer: SourceBuffer, source: MediaSource): Promise<Song | null> {
    let ended = false;
    while (generation === this.generation && !this.element.ended) {
      // Decided only once the playhead is in the last song appended: the player's "next" is relative to it.
      const near =
        this.tracks.length === 1 && this.bufferedEnd(buffer) - this.element.currentTime < FOLLOW_LEAD_SECONDS;
      const next = this.following;
      if (near && next && next.id !== this.song?.id) return next;
      if (near && next === null && !ended && source.readyState === 'open' && !buffer.updating) {
        source.endOfStream();
        ended = true;
      }
      await sleep(POLL_MS);
    }
    return null;
  }
}

import { z } from 'zod';
import { DbId, DbIdText } from './common.js';
import { Song } from './songs.js';
import { textField } from './text.js';

/*
 * One queue across devices (issue 27): every signed-in web client and Subsonic app is a device of its user. The
 * user's queue, current song and position are kept on the server as a device plays; a live channel (server-sent
 * events, GET /api/live) tells each web client what the user's other devices play and carries remote commands.
 */

/** A device's name: what the devices menu shows (by default the browser and system, or the Subsonic app's `c`). */
export const DEVICE_NAME_MAX = 60;
/** Songs of a queue a web client saves: a window around the current song (the player's own keeps at most 200). */
export const DEVICE_QUEUE_MAX = 1000;
/** Devices kept per user: a new one past this replaces the one seen longest ago. */
export const DEVICES_PER_USER_MAX = 30;
/** A device counts as active while it was seen this recently (a live connection, a report, a Subsonic call). */
export const DEVICE_ACTIVE_MS = 10 * 60 * 1000;
/** While a song plays, a web client reports where it is this often (and at once on pause, skip, queue change, close). */
export const DEVICE_REPORT_INTERVAL_MS = 12_000;
/** The live channel sends a comment this often, so proxies and the browser keep an idle connection open. */
export const LIVE_HEARTBEAT_MS = 25_000;

/** What a web client calls itself: random text it keeps in local storage (16 to 64 letters, digits, `-`, `_`). */
export const DeviceKey = z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'A device key is 16 to 64 letters, digits, - or _');

export const DeviceKinds = ['web', 'subsonic'] as const;
export type DeviceKind = (typeof DeviceKinds)[number];
export const PlaybackStates = ['playing', 'paused', 'stopped'] as const;
export type PlaybackState = (typeof PlaybackStates)[number];

/** What a device plays, as it last said (`positionMs` at `at`; the position moves on from there while playing). */
export const DevicePlayback = z.object({
  state: z.enum(PlaybackStates),
  songId: z.number().int().nullable(),
  songName: z.string().nullable(),
  artistName: z.string().nullable(),
  /** The song's length, when known. */
  durationMs: z.number().int().nullable(),
  positionMs: z.number().int(),
  at: z.string(),
  /** 0..1; null when the device never said (a Subsonic app). */
  volume: z.number().nullable(),
});
export type DevicePlayback = z.infer<typeof DevicePlayback>;

export const Device = z.object({
  id: z.number().int(),
  name: z.string(),
  kind: z.enum(DeviceKinds),
  /** Seen within DEVICE_ACTIVE_MS. */
  active: z.boolean(),
  lastSeenAt: z.string(),
  /** Null until the device reports playback. */
  playback: DevicePlayback.nullable(),
});
export type Device = z.infer<typeof Device>;

export const DeviceList = z.object({ devices: z.array(Device) });
export type DeviceList = z.infer<typeof DeviceList>;

export const DeviceParams = z.object({ deviceId: DbIdText });

export const DeviceRename = z.object({ name: textField().trim().min(1).max(DEVICE_NAME_MAX) });
export type DeviceRename = z.infer<typeof DeviceRename>;

/** The queue a device plays, in play order, and which of its songs is current. */
export const DeviceQueue = z
  .object({
    songIds: z.array(DbId).min(1).max(DEVICE_QUEUE_MAX),
    currentIndex: z.number().int().min(0),
  })
  .refine((queue) => queue.currentIndex < queue.songIds.length, {
    message: 'currentIndex must name a song of the queue',
    path: ['currentIndex'],
  });

/**
 * A web client's report of its playback: throttled while playing, and at once on pause, skip, a queue change and page
 * hide. With `queue`, the queue becomes the user's queue (the one another device continues); without, only the
 * position of the queue this device saved last moves on.
 */
export const PlaybackReport = z.object({
  state: z.enum(PlaybackStates),
  songId: DbId.nullable(),
  positionMs: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
  volume: z.number().min(0).max(1),
  queue: DeviceQueue.optional(),
});
export type PlaybackReport = z.infer<typeof PlaybackReport>;

/** What one device asks another to do. */
export const DeviceCommand = z.discriminatedUnion('type', [
  z.object({ type: z.literal('play') }),
  z.object({ type: z.literal('pause') }),
  z.object({ type: z.literal('next') }),
  z.object({ type: z.literal('previous') }),
  z.object({ type: z.literal('seek'), positionMs: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER) }),
  z.object({ type: z.literal('volume'), volume: z.number().min(0).max(1) }),
]);
export type DeviceCommand = z.infer<typeof DeviceCommand>;

/** The user's saved queue, to continue on this device: songs as the caller sees them now. */
export const SavedQueue = z.object({
  queue: z
    .object({
      songs: z.array(Song),
      currentIndex: z.number().int(),
      /** Where the current song is now: the position saved, moved on while the device that saved it still plays. */
      positionMs: z.number().int(),
      changedAt: z.string(),
      /** The device that saved it; null when it is gone. */
      device: z.object({ id: z.number().int(), name: z.string() }).nullable(),
    })
    .nullable(),
});
export type SavedQueue = z.infer<typeof SavedQueue>;

export const LiveQuery = z.object({ device: DeviceKey });

/**
 * What the live channel sends (`event:` name, `data:` JSON). `hello` comes first on every connection, reconnects
 * included: the whole state again (a resync), so nothing missed while away needs replaying.
 */
export interface LiveEvents {
  /** This client's device, and every device of the user. */
  hello: { deviceId: number; devices: Device[] };
  /** A device of the user changed (a report, a rename, came or went). */
  device: { device: Device };
  /** For this device only: do this. */
  command: { command: DeviceCommand };
  /** For this device only: take over playback of the user's queue (GET /api/queue) at `positionMs`, and play. */
  takeOver: { positionMs: number; currentIndex: number };
  /** The user's queue was saved (by `deviceId`). */
  queue: { deviceId: number | null; changedAt: string };
}
export type LiveEventName = keyof LiveEvents;

/** Texts of devices: the server's refusals and the devices menu. */
export const DeviceMessages = {
  deviceNotFound: 'Device not found',
  notControllable: 'This device cannot be controlled from here: it is a Subsonic app',
  transferToSelf: 'Playback is already on this device',
  nothingToMove: 'There is no queue to move: play something first',
  closing: 'The server is shutting down; reconnect in a moment',
  devices: 'Devices',
  devicesOf: 'Your devices',
  thisDevice: 'This device',
  noOtherDevices: 'Open Tonearm on another device to see it here.',
  nothingPlaying: 'Not playing',
  moveHere: 'Play here',
  moveTo: (name: string) => `Play on ${name}`,
  rename: 'Rename',
  renameLabel: (name: string) => `New name for ${name}`,
  continueFrom: (device: string, at: string) => `Continue from ${device} at ${at}`,
  continueAction: 'Continue',
  dismiss: 'Not now',
  controlsOf: (name: string) => `Controls of ${name}`,
} as const;

import { endpoint } from './define.js';

/**
 * One queue across devices, and remote control (issue 27). Every device route is the caller's own: another user's
 * device (administrators included: what someone plays is theirs alone) does not exist for them (404).
 */
export const devices = {
  list: endpoint({
    method: 'GET',
    path: '/api/devices',
    access: 'session',
    description:
      'The caller’s devices (web clients and Subsonic apps), most recently seen first, with what each plays.',
    responses: { 200: 'DeviceList' },
  }),
  rename: endpoint({
    method: 'PATCH',
    path: '/api/devices/:deviceId',
    access: 'owner',
    params: 'DeviceParams',
    body: 'DeviceRename',
    responses: { 200: 'Device' },
  }),
  report: endpoint({
    method: 'PUT',
    path: '/api/devices/:deviceId/playback',
    access: 'owner',
    params: 'DeviceParams',
    body: 'PlaybackReport',
    description:
      'Where this device’s playback is. With `queue`, that queue becomes the user’s queue (the one Subsonic’s ' +
      'getPlayQueue answers and other devices continue); without, the position of the queue this device saved last.',
    responses: { 204: 'empty' },
  }),
  command: endpoint({
    method: 'POST',
    path: '/api/devices/:deviceId/commands',
    access: 'owner',
    params: 'DeviceParams',
    body: 'DeviceCommand',
    description: 'Remote control: the command reaches the device over its live channel (409 for a Subsonic app).',
    responses: { 204: 'empty' },
  }),
  transfer: endpoint({
    method: 'POST',
    path: '/api/devices/:deviceId/transfer',
    access: 'owner',
    params: 'DeviceParams',
    description:
      'Moves playback to this device: it takes over the user’s queue where it is now, and every other device pauses.',
    responses: { 204: 'empty' },
  }),
  queue: endpoint({
    method: 'GET',
    path: '/api/queue',
    access: 'session',
    description: 'The caller’s saved queue (whichever device or app saved it), to continue here; null when none.',
    responses: { 200: 'SavedQueue' },
  }),
  live: endpoint({
    method: 'GET',
    path: '/api/live',
    access: 'session',
    query: 'LiveQuery',
    description:
      'The live channel (text/event-stream) of this device (`device`: its key): `hello` (the whole state, on every ' +
      'connection), then `device`, `queue`, and this device’s `command` and `takeOver` events; a comment every 25 s.',
    responses: { 200: 'binary' },
  }),
} as const;

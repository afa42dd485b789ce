import type { App } from '../../http/app-types.js';
import { devicesRoutes } from './devices.routes.js';
import type { DevicesService } from './devices.service.js';
import { liveRoutes } from './live.routes.js';

/** One queue across devices and remote control (issue 27): `/api/devices`, `/api/queue` and the live channel. */
export function registerDevices(app: App, { devices }: { devices: DevicesService }): void {
  devicesRoutes(app, devices);
  liveRoutes(app, devices);
}

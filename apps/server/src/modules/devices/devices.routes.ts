import { endpoints } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { requireViewer } from '../../http/session.js';
import { toSavedQueue } from './devices.presenter.js';
import type { DevicesService } from './devices.service.js';

/** The caller's devices, their reports and remote control, and the saved queue: always the caller's own. */
export function devicesRoutes(app: App, devices: DevicesService): void {
  route(app, endpoints.devices.list, async (request) => {
    const user = await requireViewer(request);
    return { devices: await devices.list(user.id) };
  });

  route(app, endpoints.devices.rename, async (request) => {
    const user = await requireViewer(request);
    return devices.rename(user.id, request.params.deviceId, request.body.name);
  });

  route(app, endpoints.devices.report, async (request) => {
    const user = await requireViewer(request);
    await devices.report(user, request.params.deviceId, request.body);
  });

  route(app, endpoints.devices.command, async (request) => {
    const user = await requireViewer(request);
    await devices.command(user.id, request.params.deviceId, request.body);
  });

  route(app, endpoints.devices.transfer, async (request) => {
    const user = await requireViewer(request);
    await devices.transfer(user.id, request.params.deviceId);
  });

  route(app, endpoints.devices.queue, async (request) => {
    const user = await requireViewer(request);
    return toSavedQueue(await devices.savedQueue(user));
  });
}

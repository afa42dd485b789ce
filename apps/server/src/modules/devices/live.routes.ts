import type { OutgoingHttpHeaders } from 'node:http';
import { DeviceMessages, endpoints, ErrorCodes } from '@tonearm/contract';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { HttpError } from '../../http/errors.js';
import { requireViewer, sessionToken } from '../../http/session.js';
import type { DevicesService } from './devices.service.js';
import { frameOf, type LiveConnection } from './live-hub.js';

/** A client whose unread events pile up past this is let go (it reconnects and gets a fresh hello). */
const UNREAD_MAX_BYTES = 256 * 1024;
/** How soon the browser's EventSource reconnects after the channel drops. */
const RECONNECT_MS = 2000;

/**
 * GET /api/live: the device's live channel, as server-sent events. The reply is the raw response from here on (Fastify
 * hands it over: hijack), held open until the client leaves or the server closes (the hub ends every channel first).
 * Node's request timeouts stop at the end of the request (a GET has no body), so they never cut it.
 */
export function liveRoutes(app: App, devices: DevicesService): void {
  route(app, endpoints.devices.live, { compress: false }, async (request, reply) => {
    const user = await requireViewer(request);
    const { hub } = devices;
    if (hub.isClosing) {
      const closing = new HttpError(503, ErrorCodes.serverBusy, DeviceMessages.closing);
      closing.retryAfterSeconds = 2;
      throw closing;
    }
    const device = await devices.connectWeb(user.id, request.query.device, request.headers['user-agent']);
    const sessionId = request.server.sessionStore.idOf(sessionToken(request) ?? '');
    reply.hijack();
    const response = reply.raw;
    // The headers set on the reply so far (the security headers among them) are not written for a hijacked reply.
    response.writeHead(200, {
      ...setHeaders(reply.getHeaders()),
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'x-request-id': request.id,
    });
    response.socket?.setKeepAlive(true);
    const connection: LiveConnection = {
      userId: user.id,
      deviceId: device.id,
      sessionId,
      write: (frame) => {
        if (response.writableEnded || response.destroyed) return false;
        response.write(frame);
        return response.writableLength <= UNREAD_MAX_BYTES;
      },
      end: () => {
        if (!response.writableEnded) response.end();
      },
    };
    response.write(`retry: ${RECONNECT_MS}\n\n`);
    // Attached before the hello is read, so nothing published meanwhile is missed (the hello may repeat it).
    hub.attach(connection);
    response.on('close', () => {
      if (hub.detach(connection) && !hub.isClosing) {
        devices.disconnectWeb(user.id, device.id).catch((error: unknown) => {
          request.log.warn({ err: error }, 'live channel: could not mark the device gone');
        });
      }
    });
    hub.send(connection, frameOf('hello', await devices.hello(user.id, device.id)));
    return reply;
  });
}

/** The headers given a value on a Fastify reply, as Node's writeHead takes them. */
function setHeaders(headers: Record<string, number | string | string[] | undefined>): OutgoingHttpHeaders {
  return Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== undefined));
}

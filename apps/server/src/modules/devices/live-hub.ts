import { LIVE_HEARTBEAT_MS, type LiveEventName, type LiveEvents } from '@tonearm/contract';
import type { Notifications } from '../../db/notifications.js';

/** One client's open live channel (an SSE response). */
export interface LiveConnection {
  readonly userId: number;
  readonly deviceId: number;
  /** The session it was opened with (SessionStore.idOf): the channel ends with it. */
  readonly sessionId: string;
  /** Writes one frame; false when the client is not reading (its buffer is full): it is then dropped. */
  write(frame: string): boolean;
  end(): void;
}

/** What travels between the instances: an event for a user's live channels (all of them, one device, or all but one). */
export interface LiveMessage {
  userId: number;
  event: LiveEventName;
  data: LiveEvents[LiveEventName];
  /** Only this device's channels. */
  to?: number;
  /** Every channel but this device's. */
  except?: number;
}

/** How often the devices of open channels are marked seen (one UPDATE for all of them). */
export const LIVE_TOUCH_MS = 4 * 60 * 1000;

export function frameOf<E extends LiveEventName>(event: E, data: LiveEvents[E]): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** A comment line: the browser ignores it, every proxy on the way sees bytes move. */
const HEARTBEAT = ': ping\n\n';

export interface LiveHubOptions {
  notifications: Notifications;
  /** Marks devices seen (LIVE_TOUCH_MS). */
  touch: (deviceIds: readonly number[]) => Promise<void>;
  /** The `hello` of a connection again, after messages may have been lost between the instances. */
  resync: (connection: LiveConnection) => Promise<void>;
  /** Which of these sessions are still signed in (SessionStore.stillLive). */
  stillLive: (sessionIds: readonly string[]) => Promise<ReadonlySet<string>>;
  heartbeatMs?: number;
  touchMs?: number;
  log?: { warn: (message: string) => void };
}

/**
 * This instance's open live channels, by user, and the messages between instances that feed them. A channel costs its
 * socket and one small object here: the heartbeat and the "seen" marks are one timer each for every channel.
 */
export class LiveHub {
  private readonly users = new Map<number, Set<LiveConnection>>();
  private heartbeat: NodeJS.Timeout | undefined;
  private toucher: NodeJS.Timeout | undefined;
  private closing = false;
  private sessionCheck: Promise<void> | undefined;

  constructor(private readonly options: LiveHubOptions) {
    options.notifications.listen((payload) => {
      this.deliver(JSON.parse(payload) as LiveMessage);
    });
    options.notifications.onResync(() => {
      for (const connection of this.connections()) {
        options.resync(connection).catch(() => {
          this.drop(connection);
        });
      }
    });
  }

  get isClosing(): boolean {
    return this.closing;
  }

  /** Open channels on this instance. */
  get size(): number {
    let count = 0;
    for (const set of this.users.values()) count += set.size;
    return count;
  }

  async start(): Promise<void> {
    this.closing = false;
    await this.options.notifications.start();
    this.heartbeat = setInterval(() => {
      for (const connection of this.connections()) this.send(connection, HEARTBEAT);
      void this.endSignedOut();
    }, this.options.heartbeatMs ?? LIVE_HEARTBEAT_MS);
    this.toucher = setInterval(() => {
      const ids = [...new Set([...this.connections()].map((connection) => connection.deviceId))];
      this.options.touch(ids).catch((error: unknown) => {
        this.options.log?.warn(`Live channel: could not mark devices seen: ${String(error)}`);
      });
    }, this.options.touchMs ?? LIVE_TOUCH_MS);
    this.heartbeat.unref();
    this.toucher.unref();
  }

  /** Ends every channel (the server is closing: an open SSE response would hold its close forever). */
  closeAll(): void {
    this.closing = true;
    for (const connection of this.connections()) connection.end();
    this.users.clear();
  }

  async stop(): Promise<void> {
    this.closeAll();
    clearInterval(this.heartbeat);
    clearInterval(this.toucher);
    await this.options.notifications.stop();
  }

  attach(connection: LiveConnection): void {
    let set = this.users.get(connection.userId);
    if (set === undefined) {
      set = new Set();
      this.users.set(connection.userId, set);
    }
    set.add(connection);
  }

  /** Removes the channel; true when it was its device's last one on this instance. */
  detach(connection: LiveConnection): boolean {
    const set = this.users.get(connection.userId);
    if (set === undefined) return false;
    set.delete(connection);
    if (set.size === 0) this.users.delete(connection.userId);
    return ![...(this.users.get(connection.userId) ?? [])].some((other) => other.deviceId === connection.deviceId);
  }

  /**
   * Ends the channels whose session has ended (a logout, a password change, a deletion, an expiry): called on every
   * heartbeat, so another instance's sign-out reaches a channel here within one, and at once after this process ends
   * sessions. One query for every open channel; overlapping calls share it.
   */
  endSignedOut(): Promise<void> {
    this.sessionCheck ??= this.checkSessions().finally(() => {
      this.sessionCheck = undefined;
    });
    return this.sessionCheck;
  }

  private async checkSessions(): Promise<void> {
    const open = [...this.connections()];
    if (open.length === 0) return;
    try {
      const live = await this.options.stillLive(open.map((connection) => connection.sessionId));
      for (const connection of open) if (!live.has(connection.sessionId)) this.drop(connection);
    } catch (error) {
      this.options.log?.warn(`Live channel: could not check sessions: ${String(error)}`);
    }
  }

  /** Sends to every instance (this one included). */
  publish(message: LiveMessage): Promise<void> {
    return this.options.notifications.publish(JSON.stringify(message));
  }

  send(connection: LiveConnection, frame: string): void {
    if (!connection.write(frame)) this.drop(connection);
  }

  private deliver(message: LiveMessage): void {
    const set = this.users.get(message.userId);
    if (set === undefined) return;
    const frame = frameOf(message.event, message.data);
    for (const connection of set) {
      if (message.to !== undefined && connection.deviceId !== message.to) continue;
      if (message.except !== undefined && connection.deviceId === message.except) continue;
      this.send(connection, frame);
    }
  }

  /** A client that does not read its channel is let go (it reconnects and gets a fresh hello). */
  private drop(connection: LiveConnection): void {
    this.detach(connection);
    connection.end();
  }

  private *connections(): Iterable<LiveConnection> {
    for (const set of this.users.values()) yield* [...set];
  }
}

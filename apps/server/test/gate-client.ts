import { connect, type Socket } from 'node:net';

/** What nginx sends the offload gate for a client's request (modules/media/offload-gate.ts). */
export const gateRequest = (method: string, target: string, cookie?: string) =>
  `${method} ${target} HTTP/1.1\r\nHost: music.example.org\r\n${cookie === undefined ? '' : `Cookie: ${cookie}\r\n`}\r\n`;

/** Where a gate's answer sends nginx (its X-Accel-Redirect). */
export const accelOf = (answer: string) => /\r\nX-Accel-Redirect: ([^\r]*)\r\n/.exec(answer)?.[1];

/** A raw connection to the gate that reads answers (heads only: the gate never sends a body). */
export class GateClient {
  private received = '';
  private closed = false;
  private readonly waiters: (() => void)[] = [];

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => {
      this.received += chunk;
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static open(to: number | string): Promise<GateClient> {
    const address = typeof to === 'number' ? { host: '127.0.0.1', port: to } : { path: to };
    return new Promise((resolve, reject) => {
      const socket = connect(address, () => resolve(new GateClient(socket)));
      socket.once('error', reject);
    });
  }

  send(text: string): void {
    this.socket.write(text, 'latin1');
  }

  /** The next `count` answers, in order. */
  async answers(count: number): Promise<string[]> {
    const found: string[] = [];
    while (found.length < count) {
      const end = this.received.indexOf('\r\n\r\n');
      if (end !== -1) {
        found.push(this.received.slice(0, end + 4));
        this.received = this.received.slice(end + 4);
      } else if (this.closed) {
        throw new Error(`the gate closed the connection after ${found.length} of ${count} answers`);
      } else {
        await new Promise<void>((resolve) => this.waiters.push(resolve));
      }
    }
    return found;
  }

  async answer(text: string): Promise<string> {
    this.send(text);
    const [answer] = await this.answers(1);
    return answer ?? '';
  }

  /** Whether the connection is closed (by the gate, or by destroy()). */
  get isClosed(): boolean {
    return this.closed;
  }

  /** Resolves once the gate has closed the connection. */
  async closedByGate(): Promise<void> {
    while (!this.closed) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  destroy(): void {
    this.socket.destroy();
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }
}

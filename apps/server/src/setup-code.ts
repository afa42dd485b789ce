import { randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The one-time code that claims a server without an administrator from anywhere (the `?setup=` link main.ts prints at
 * start). It lives in this process only: with several instances, each prints and accepts its own.
 */
export class SetupCode {
  private code: string | null;

  constructor(code: string = randomBytes(15).toString('base64url')) {
    this.code = code;
  }

  /** The code while it is unused, else null. */
  get value(): string | null {
    return this.code;
  }

  /** Compares in constant time, so the answer's timing says nothing about how much of a guess was right. */
  matches(candidate: string): boolean {
    if (this.code === null) return false;
    const expected = Buffer.from(this.code);
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** Used once: a claimed server has an administrator, and the code must not create another. */
  consume(): void {
    this.code = null;
  }
}

/** The address to open to claim the server: its public URL when configured, else this machine on its port. */
export function setupUrl(code: string, publicUrl: string | null, port: number): string {
  return `${publicUrl ?? `http://localhost:${port}`}/?setup=${encodeURIComponent(code)}`;
}

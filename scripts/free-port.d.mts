/** A TCP port that was free a moment ago on the loopback interface, and not given before in this process. */
export function freePort(): Promise<number>;

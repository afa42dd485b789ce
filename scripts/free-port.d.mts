/** A TCP port that was free a moment ago on the loopback interface. */
export function freePort(): Promise<number>;

import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { FastifyReply } from 'fastify';

/** Parts shorter than this are glued to the next one, so punctuation and tiny chunks do not each cost a write. */
const MIN_PART_CHARS = 16 * 1024;

/**
 * A JSON answer written in parts, for answers too big to build in one go (the whole catalogue). `T` is the JSON value
 * the parts add up to, so a streamed answer is type-checked against its declaration like a plain value. Make one with
 * `JsonStream.array` and `JsonStream.object`; a route handler returns it and route() sends it (sendJsonStream).
 */
export class JsonStream<T> {
  /** Never set: carries the type of the value the text adds up to. */
  declare readonly value: T;

  private constructor(
    /** Makes the JSON text, part after part; made afresh by each call. */
    readonly parts: () => AsyncIterable<string>,
  ) {}

  /**
   * A JSON array whose items arrive in chunks (each chunk one database read, say). Each chunk is serialised with
   * JSON.stringify when the writer asks for it, so at most about one chunk is in memory at a time.
   */
  static array<Item>(chunks: () => AsyncIterable<readonly Item[]>): JsonStream<Item[]> {
    return new JsonStream(async function* arrayParts() {
      yield '[';
      let first = true;
      for await (const chunk of chunks()) {
        if (chunk.length === 0) continue;
        const items = JSON.stringify(chunk).slice(1, -1);
        yield first ? items : `,${items}`;
        first = false;
      }
      yield ']';
    });
  }

  /** A JSON object whose members are streamed one after the other, in the order of `members`' keys. */
  static object<T extends object>(members: { [K in keyof T]: JsonStream<T[K]> }): JsonStream<T> {
    const entries = Object.entries<JsonStream<unknown>>(members);
    return new JsonStream(async function* objectParts() {
      let separator = '{';
      for (const [key, member] of entries) {
        yield `${separator}${JSON.stringify(key)}:`;
        yield* member.parts();
        separator = ',';
      }
      yield entries.length === 0 ? '{}' : '}';
    });
  }
}

/** Joins parts until each is at least MIN_PART_CHARS long (the last one may be shorter). */
async function* glued(parts: AsyncIterable<string>): AsyncGenerator<string> {
  let pending = '';
  for await (const part of parts) {
    pending += part;
    if (pending.length >= MIN_PART_CHARS) {
      yield pending;
      pending = '';
    }
  }
  if (pending !== '') yield pending;
}

/** After each part is taken, lets the event loop run (other requests, I/O) before the next part is made. */
async function* takingTurns(first: IteratorResult<string>, rest: AsyncIterator<string>): AsyncGenerator<string> {
  try {
    let next = first;
    while (next.done !== true) {
      yield next.value;
      await nextTurn();
      next = await rest.next();
    }
  } finally {
    // The client went away (or the text is done): stop the generators that make the parts.
    await rest.return?.();
  }
}

/**
 * Sends a JSON stream as the answer: the first part is made before anything is sent, so a failure there (the
 * database is down) is answered like any other error. Then each part is written when the connection has room for it
 * (backpressure: a slow client holds at most about one part in memory), with a turn of the event loop between two
 * parts, and the parts stop being made as soon as the client goes away (Fastify destroys the stream, which returns
 * the generators). A failure after the first part cuts the connection (the status line is already sent).
 */
export async function sendJsonStream<T>(
  reply: FastifyReply,
  status: number,
  stream: JsonStream<T>,
): Promise<FastifyReply> {
  const parts = glued(stream.parts())[Symbol.asyncIterator]();
  const first = await parts.next();
  const body = Readable.from(takingTurns(first, parts), { objectMode: false });
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

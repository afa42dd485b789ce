import * as contract from '@tonearm/contract';
import {
  endpointList,
  successStatus,
  type BodyOf,
  type EndpointId,
  type EndpointSpec,
  type ParamsOf,
  type QueryOf,
  type ResponseSpec,
  type SchemaName,
  type SchemaOf,
} from '@tonearm/contract';
import type { FastifyReply, FastifyRequest, FastifySchema, RouteOptions } from 'fastify';
import type { z } from 'zod';
import type { App } from './app-types.js';
import { JsonStream, sendJsonStream } from './json-stream.js';
import { RESPONSE_CHECKS, responseSerializerCompiler } from './response-serializer.js';
import { sendText, textResponse } from './text-response.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The contract declaration the route was registered from (`'playlists.get'`). */
    endpoint?: EndpointId;
  }
}

/** The request a handler sees: params, query and body already validated and typed by the declaration's schemas. */
export type EndpointRequest<E extends EndpointSpec> = FastifyRequest<{
  Params: ParamsOf<E>;
  Querystring: QueryOf<E>;
  Body: BodyOf<E>;
}>;

type SuccessSpec<E extends EndpointSpec> = E['responses'][keyof E['responses'] & (200 | 201 | 204 | 206)];

/**
 * What a handler returns: the JSON value of a JSON answer (the declared success status is set for it); nothing for a
 * *text* answer (the declared text is sent) or an empty one (204); the reply itself after writing bytes.
 */
export type HandlerResult<E extends EndpointSpec> =
  SuccessSpec<E> extends infer R
    ? R extends SchemaName
      ? z.input<SchemaOf<R>>
      : R extends 'binary'
        ? FastifyReply
        : undefined
    : never;

/** A JSON answer may also be returned as a JsonStream of that value, written in parts (http/json-stream.ts). */
export type StreamedResult<E extends EndpointSpec> =
  SuccessSpec<E> extends infer R ? (R extends SchemaName ? JsonStream<z.input<SchemaOf<R>>> : never) : never;

type AnyResult<E extends EndpointSpec> = HandlerResult<E> | StreamedResult<E>;

/** A handler of a text or empty answer returns nothing, synchronously or not; the others return their result. */
export type EndpointHandler<E extends EndpointSpec> = [HandlerResult<E>] extends [undefined]
  ? (request: EndpointRequest<E>, reply: FastifyReply) => void | Promise<void>
  : (request: EndpointRequest<E>, reply: FastifyReply) => AnyResult<E> | Promise<AnyResult<E>>;

/** Route options that are not part of the contract: rate limits, pre-handlers, compression. */
export type RouteExtras = Pick<RouteOptions, 'preHandler' | 'compress' | 'bodyLimit'> & {
  config?: Omit<NonNullable<RouteOptions['config']>, 'access' | 'endpoint'>;
};

const schemas = contract as unknown as Record<SchemaName, z.ZodType>;
/** JSON answers are written by serializers compiled from their schemas; outside production zod checks them too. */
const serializerCompiler = responseSerializerCompiler(RESPONSE_CHECKS);
const idOf = new Map<EndpointSpec, { id: EndpointId; feature: string }>(
  endpointList.map(({ id, feature, spec }) => [spec, { id, feature }]),
);

function responseSchema(answer: ResponseSpec): unknown {
  if (typeof answer === 'object') return textResponse(answer.text);
  if (answer === 'empty' || answer === 'binary') return undefined;
  return schemas[answer];
}

/** The Fastify schema of a declaration: validation (zod) and the OpenAPI document both come from it. */
export function routeSchema(spec: EndpointSpec): FastifySchema {
  const known = idOf.get(spec);
  const response = Object.fromEntries(
    Object.entries(spec.responses)
      .map(([status, answer]) => [status, responseSchema(answer)] as const)
      .filter(([, schema]) => schema !== undefined),
  );
  const body = spec.body === undefined ? undefined : schemas[spec.body];
  return {
    ...(known && { tags: [known.feature], operationId: known.id }),
    ...(spec.summary !== undefined && { summary: spec.summary }),
    ...(spec.description !== undefined && { description: spec.description }),
    ...(spec.params !== undefined && { params: schemas[spec.params] }),
    ...(spec.query !== undefined && { querystring: schemas[spec.query] }),
    ...(body !== undefined && { body: spec.bodyOptional === true ? body.nullish() : body }),
    ...(spec.form !== undefined && {
      consumes: spec.form.json === true ? ['multipart/form-data', 'application/json'] : ['multipart/form-data'],
    }),
    ...(Object.keys(response).length > 0 && { response }),
  };
}

/** Sends what the declaration says a success answers, after the handler did its work. */
async function answer(spec: EndpointSpec, reply: FastifyReply, result: unknown): Promise<unknown> {
  if (reply.sent || result === reply) return reply;
  const status = successStatus(spec);
  const declared = spec.responses[status];
  if (typeof declared === 'object') {
    sendText(reply, status, declared.text);
    return reply;
  }
  if (declared === 'empty') return reply.status(204).send();
  // Written as it is made: the parts skip the response schema, and are typed against it instead (StreamedResult).
  if (result instanceof JsonStream) return sendJsonStream(reply, status, result);
  void reply.status(status);
  return result;
}

/**
 * Registers the route a contract declaration describes: method, path, access, schemas and OpenAPI all come from it;
 * the handler only does the work. `extras` carries what is not the contract's business (rate limits, pre-handlers).
 */
export function route<E extends EndpointSpec>(app: App, spec: E, handler: EndpointHandler<E>): void;
export function route<E extends EndpointSpec>(
  app: App,
  spec: E,
  extras: RouteExtras,
  handler: EndpointHandler<E>,
): void;
export function route<E extends EndpointSpec>(
  app: App,
  spec: E,
  extrasOrHandler: RouteExtras | EndpointHandler<E>,
  maybeHandler?: EndpointHandler<E>,
): void {
  const extras = typeof extrasOrHandler === 'function' ? {} : extrasOrHandler;
  const handler = typeof extrasOrHandler === 'function' ? extrasOrHandler : maybeHandler;
  if (handler === undefined) throw new Error(`${spec.method} ${spec.path}: no handler`);
  app.route({
    ...extras,
    method: spec.method,
    url: spec.path,
    config: { ...extras.config, access: spec.access, ...(idOf.has(spec) && { endpoint: idOf.get(spec)?.id }) },
    schema: routeSchema(spec),
    serializerCompiler,
    handler: async (request, reply) => {
      const run = handler as (request: EndpointRequest<E>, reply: FastifyReply) => unknown;
      const result = await run(request as unknown as EndpointRequest<E>, reply);
      return answer(spec, reply, result);
    },
  });
}

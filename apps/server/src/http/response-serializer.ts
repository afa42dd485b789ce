import type { FastifySerializerCompiler } from 'fastify/types/schema.js';
import fastJson from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';

type Serialize = (data: unknown) => string;
type JsonSchema = Record<string, unknown>;

/** What the zod serializer answers: the value encoded (and checked) by the schema, then JSON.stringify. */
type ZodSerializerInput = Parameters<typeof zodSerializerCompiler>[0];

const compiled = new WeakMap<z.ZodType, Serialize | null>();

/** The JSON Schema keywords that say nothing about how a value is written (only what values are valid). */
const CHECKS_ONLY = new Set([
  '$schema',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
  'pattern',
  'format',
  'multipleOf',
  'description',
]);

/** `{anyOf: [{type: 'integer'}, {type: 'null'}]}` as `{type: ['integer', 'null']}`: a typeof test instead of a validator. */
function simpleTypes(branches: unknown[]): string[] | null {
  const types: string[] = [];
  for (const branch of branches) {
    if (typeof branch !== 'object' || branch === null) return null;
    const { type, ...rest } = branch as JsonSchema;
    if (Object.keys(rest).some((key) => !CHECKS_ONLY.has(key))) return null;
    if (typeof type === 'string' && type !== 'object' && type !== 'array') types.push(type);
    else if (Array.isArray(type) && type.every((t) => typeof t === 'string' && t !== 'object' && t !== 'array')) {
      types.push(...(type as string[]));
    } else return null;
  }
  return types;
}

/** The schema zod derives, without its pure checks, and with unions of scalar types written as type lists. */
function forWriting(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(forWriting);
  if (typeof node !== 'object' || node === null) return node;
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node as JsonSchema)) {
    if (CHECKS_ONLY.has(key)) continue;
    // Property names are data here, not keywords: keep every one.
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, forWriting(schema)]));
    } else out[key] = forWriting(value);
  }
  if (Array.isArray(out.anyOf)) {
    const types = simpleTypes(out.anyOf);
    if (types !== null) {
      delete out.anyOf;
      out.type = [...new Set(types)];
    }
  }
  return out;
}

/**
 * A serializer compiled (fast-json-stringify) from the JSON Schema zod derives from `schema`: it writes the declared
 * properties in the schema's order, as the zod serializer does, without checking every value against the schema on
 * each request. Null when zod cannot describe the schema's output in JSON Schema (a transform): those keep zod's.
 */
export function compiledSerializer(schema: z.ZodType): Serialize | null {
  if (compiled.has(schema)) return compiled.get(schema) ?? null;
  let serialize: Serialize | null;
  try {
    const json = z.toJSONSchema(schema, { io: 'output', target: 'draft-07', unrepresentable: 'throw' });
    serialize = fastJson(forWriting(json) as Parameters<typeof fastJson>[0]);
  } catch {
    serialize = null;
  }
  compiled.set(schema, serialize);
  return serialize;
}

/**
 * The routes' response serializer. A JSON answer is written by the serializer compiled from its schema
 * (compiledSerializer). With `checked` (tests and development) the zod serializer also runs, so an answer that does
 * not match its schema still fails, and the two outputs must be the same bytes: a difference is a 500 naming the
 * route, which no test lets through.
 */
export function responseSerializerCompiler(checked: boolean): FastifySerializerCompiler<unknown> {
  return (route) => {
    const zodSerialize = zodSerializerCompiler(route as ZodSerializerInput) as Serialize;
    const fast = route.schema instanceof z.ZodType ? compiledSerializer(route.schema) : null;
    if (fast === null) return zodSerialize;
    if (!checked) return fast;
    return (data: unknown) => {
      const expected = zodSerialize(data);
      const written = fast(data);
      if (written !== expected) {
        throw new Error(
          `${route.method} ${route.url}: the compiled serializer wrote ${written.slice(0, 300)} where zod wrote ` +
            expected.slice(0, 300),
        );
      }
      return written;
    };
  };
}

/** Whether answers are also checked by their zod schema: everywhere but production (NODE_ENV). */
export const RESPONSE_CHECKS = process.env.NODE_ENV !== 'production';

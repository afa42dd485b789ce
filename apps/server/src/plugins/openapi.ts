import swagger from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import type { App } from '../http/app-types.js';

export const OPENAPI_PATH = '/api/docs/openapi.json';

/** Collects every route's zod schemas; must be registered before the routes. */
export async function registerOpenApi(app: App): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Tonearm API',
        description: 'Self-hostable music streaming. Errors are {"error":{"code","message","field?"}}.',
        version: '0.1.0',
      },
      components: {
        securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: 'tonearm_session' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  app.get(OPENAPI_PATH, { config: { access: 'public' }, schema: { hide: true } }, () => app.swagger());
}

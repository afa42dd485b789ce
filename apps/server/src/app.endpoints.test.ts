import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { endpointList, openApiPath } from '@tonearm/contract';
import { afterAll, expect, it } from 'vitest';
import { describeEachDialect } from '../test/dialects.js';
import type { RouteEntry } from './http/route-table.js';
import { OPENAPI_PATH } from './plugins/openapi.js';
import { isServerPath } from './plugins/web-app.js';

const key = (method: string, url: string) => `${method} ${url}`;

/** Routes that are no API endpoint: the web app's static files and the OpenAPI document itself. */
function isApiRoute(route: RouteEntry): boolean {
  return isServerPath(route.url) && route.url !== OPENAPI_PATH;
}

interface Operation {
  operationId?: string;
  'x-access'?: string;
}

let webDist = '';

describeEachDialect(
  'the endpoints declared in the contract (%s)',
  {
    // With a built web app, so its static routes are there to be told apart.
    prepare: async () => {
      webDist = await mkdtemp(path.join(tmpdir(), 'tonearm-endpoints-web-'));
      await writeFile(path.join(webDist, 'index.html'), '<!doctype html><div id="root"></div>');
      return { config: { webDist } };
    },
  },
  (t) => {
    afterAll(async () => {
      await rm(webDist, { recursive: true, force: true });
    });

    it('are each registered exactly once, by method and path', () => {
      const registered = t.app.routeTable.map((route) => key(route.method, route.url));
      const counts = endpointList.map(({ id, spec }) => [
        id,
        registered.filter((entry) => entry === key(spec.method, spec.path)).length,
      ]);
      expect(counts.filter(([, count]) => count !== 1)).toEqual([]);
    });

    it('are the only API routes: every other route is a HEAD twin of a declared GET', () => {
      const declared = new Map(endpointList.map((entry) => [entry.id, entry.spec]));
      const api = t.app.routeTable.filter(isApiRoute);
      expect(api.length).toBeGreaterThan(endpointList.length);
      const unmatched = api.filter((route) => {
        const spec = declared.get(route.config.endpoint as never);
        const method = route.method === 'HEAD' ? 'GET' : route.method;
        return spec === undefined || key(spec.method, spec.path) !== key(method, route.url);
      });
      expect(unmatched.map((route) => key(route.method, route.url))).toEqual([]);
      const others = t.app.routeTable.filter((route) => !isApiRoute(route)).map((route) => route.config.endpoint);
      expect(others.length).toBeGreaterThan(0);
      expect(others.every((endpoint) => endpoint === undefined)).toBe(true);
    });

    it('each have an OpenAPI operation named by their id, with their access', async () => {
      const response = await t.app.inject({ method: 'GET', url: OPENAPI_PATH });
      const doc = response.json<{ paths: Record<string, Record<string, Operation>> }>();
      const wrong = endpointList.filter(({ id, spec }) => {
        const operation = doc.paths[openApiPath(spec.path)]?.[spec.method.toLowerCase()];
        return operation?.operationId !== id || operation['x-access'] !== spec.access;
      });
      expect(wrong.map(({ id }) => id)).toEqual([]);
      const ids = Object.values(doc.paths).flatMap((operations) =>
        Object.values(operations).map((operation) => operation.operationId),
      );
      expect(new Set(ids).size).toBe(ids.length);
    });
  },
);

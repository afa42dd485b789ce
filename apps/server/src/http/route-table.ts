import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';

/**
 * One registered route: its method, its URL pattern as written at registration (prefix included, e.g.
 * `/api/songs/:id`), and the route's `config` object (`{}` when it declares none). A route registered for several
 * methods appears once per method; the HEAD twins Fastify adds to GET routes appear too (as Fastify reports them).
 */
export interface RouteEntry {
  readonly method: HTTPMethods;
  readonly url: string;
  readonly config: Readonly<Record<string, unknown>>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Every route of the app in registration order, filled by an `onRoute` hook that buildApp installs before any
     * route exists. Read it after `app.ready()` (or after buildApp resolved): plugins registered later add to it.
     * Tests enumerate it (e.g. the fuzz test of every endpoint, access matrices).
     */
    readonly routeTable: readonly RouteEntry[];
  }
}

/**
 * Installs the route table on `app`. Call before registering any route or plugin: `onRoute` only sees routes added
 * after it, and a hook on the root instance is inherited by every encapsulated child context.
 */
export function installRouteTable(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (route: RouteOptions) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // Read when asked: a later onRoute hook of a child scope may still set the config (web-app.ts declares access).
    const configOf = () => (route.config ?? {}) as Record<string, unknown>;
    for (const method of methods) {
      table.push({
        method,
        url: route.url,
        get config() {
          return configOf();
        },
      });
    }
  });
}

import { test } from '@playwright/test';
import type { RunningServer } from '../server.js';
import { newAccount, registerAccount, startTonearm, type Account, type TonearmOptions } from './accounts.js';

export interface SpecServer {
  readonly baseURL: string;
  /** The first account registered on the server, hence ADMIN (throws when started with `admin: false`). */
  readonly admin: Account;
}

/**
 * Gives the calling spec file its own server: started in beforeAll (with an ADMIN account registered first,
 * unless `admin: false`), stopped in afterAll, and used as every test's baseURL. Call once at the top of a file.
 */
export function useTonearmServer(options: TonearmOptions & { admin?: boolean } = {}): SpecServer {
  let server: RunningServer | undefined;
  let admin: Account | undefined;

  // eslint-disable-next-line no-empty-pattern -- Playwright hooks take fixtures by destructuring; none are needed
  test.beforeAll(async ({}, testInfo) => {
    testInfo.setTimeout(120_000);
    server = await startTonearm({
      ...(options.demo === undefined ? {} : { demo: options.demo }),
      ...(options.payments === undefined ? {} : { payments: options.payments }),
      ...(options.registration === undefined ? {} : { registration: options.registration }),
      ...(options.library === undefined ? {} : { library: options.library }),
    });
    if (options.admin !== false) {
      admin = newAccount('admin');
      await registerAccount(server.baseURL, admin);
    }
  });

  test.afterAll(async () => {
    await server?.stop();
  });

  const running = (): RunningServer => {
    if (!server) throw new Error('The Tonearm server of this spec has not started');
    return server;
  };

  test.use({
    // Playwright also resolves baseURL for the beforeAll hook itself, before the server exists: undefined there.
    // eslint-disable-next-line no-empty-pattern -- a fixture override with no dependencies
    baseURL: async ({}, use) => {
      await use(server?.baseURL);
    },
  });

  return {
    get baseURL() {
      return running().baseURL;
    },
    get admin() {
      if (!admin) throw new Error('This spec started its server without an admin account');
      return admin;
    },
  };
}

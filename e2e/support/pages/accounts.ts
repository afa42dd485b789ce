import { expect, request, type APIRequestContext, type Page } from '@playwright/test';
import { prepareLibrary, type LibraryOptions } from '../large-library.js';
import { startServer, type RunningServer } from '../server.js';
import { snapshotWebDist } from './web-snapshot.js';

export interface Account {
  username: string;
  email: string;
  password: string;
}

let counter = 0;

/** A fresh, valid account; the random part keeps names unique across specs sharing nothing but the clock. */
export function newAccount(prefix: string): Account {
  counter += 1;
  const suffix = `${Date.now().toString(36)}${counter}${Math.floor(Math.random() * 1e4).toString(36)}`;
  const username = `${prefix}_${suffix}`.slice(0, 32);
  return { username, email: `${username}@example.test`, password: 'correct-horse-battery' };
}

export interface TonearmOptions {
  /** Seed the demo catalogue (default true). */
  demo?: boolean;
  /** 'demo' turns on the demo payment provider (test cards), which is off unless asked for by name. */
  payments?: 'demo' | 'none';
  /** REGISTRATION (open by default). */
  registration?: 'open' | 'closed';
  /** A synthetic library seeded straight into the database before the server starts (with `demo: false`). */
  library?: LibraryOptions;
}

/**
 * Starts a Tonearm server for one spec file, serving its own copy of the built web app (see snapshotWebDist).
 * The auth rate limit (10 a minute by default) is raised because a spec logs in once per test from one address.
 */
export async function startTonearm(options: TonearmOptions = {}): Promise<RunningServer> {
  const web = await snapshotWebDist();
  try {
    const { library } = options;
    const server = await startServer({
      ...(options.demo === undefined ? {} : { demo: options.demo }),
      ...(library === undefined ? {} : { beforeStart: (dataDir: string) => prepareLibrary(dataDir, library) }),
      env: {
        AUTH_RATE_LIMIT: '1000',
        WEB_DIST: web.dir,
        PAYMENT_PROVIDER: options.payments ?? 'none',
        REGISTRATION: options.registration ?? 'open',
      },
    });
    return {
      ...server,
      async stop() {
        await server.stop();
        web.remove();
      },
    };
  } catch (error) {
    web.remove();
    throw error;
  }
}

/** POST /api/auth/register; the first account on a server becomes ADMIN. */
export async function registerAccount(baseURL: string, account: Account): Promise<void> {
  const response = await fetch(`${baseURL}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(account),
  });
  if (response.status !== 201) {
    throw new Error(`register ${account.username}: ${response.status} ${await response.text()}`);
  }
}

/** An API client logged in as `account` (its cookie jar holds the session); dispose it when done. */
export async function apiSession(baseURL: string, account: Account): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL });
  const response = await api.post('/api/auth/login', {
    data: { username: account.username, password: account.password },
  });
  if (!response.ok()) throw new Error(`login ${account.username}: ${response.status()} ${await response.text()}`);
  return api;
}

/** Signs up through the form on `/`; registering logs in and opens /dashboard. */
export async function signUp(page: Page, account: Account): Promise<void> {
  await page.goto('/');
  await page.getByRole('tab', { name: 'Sign up' }).click();
  const form = page.getByRole('form', { name: 'Sign up' });
  await form.getByLabel('Username').fill(account.username);
  await form.getByLabel('Email').fill(account.email);
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** Logs in through the form on `/` and waits for the dashboard. */
export async function logIn(page: Page, account: Account): Promise<void> {
  await page.goto('/');
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByLabel('Username or email').fill(account.username);
  await form.getByLabel('Password').fill(account.password);
  await form.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  // The shell is up (on narrow screens the navigation hides in a drawer, the player bar does not).
  await expect(page.getByRole('region', { name: 'Player' })).toBeVisible();
}

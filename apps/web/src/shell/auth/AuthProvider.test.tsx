import { QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen } from '@testing-library/react';
import { AUTH_CHECK_INTERVAL_MS, ServerMessages, StorageKeys, type User } from '@tonearm/contract';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../app/query-client.js';
import { api as client } from '../../lib/api.js';
import { OFFLINE_SHELL_META } from '../../lib/offline-start.js';
import { errorResponse, jsonResponse, makeSong, makeUser, textResponse } from '../../test/fixtures.js';
import { mockApi, networkFailure } from '../../test/mock-api.js';
import { advance, flush } from '../../test/timers.js';
import { createAlertStore } from '../alerts/alert-store.js';
import { AlertProvider } from '../alerts/AlertProvider.js';
import { AuthProvider, RECONNECT_CHECK_MS } from './AuthProvider.js';
import { useAuth, type AuthState } from './useAuth.js';

let auth: AuthState | undefined;

function Probe({ onAuth }: { onAuth: (state: AuthState) => void }) {
  const state = useAuth();
  useEffect(() => {
    onAuth(state);
  });
  const { user } = state;
  return <p data-testid="user">{user === undefined ? 'unknown' : user === null ? 'none' : user.username}</p>;
}

function renderAuth() {
  render(
    <AlertProvider store={createAlertStore()}>
      <QueryClientProvider client={createQueryClient(() => undefined)}>
        <AuthProvider>
          <Probe
            onAuth={(state) => {
              auth = state;
            }}
          />
        </AuthProvider>
      </QueryClientProvider>
    </AlertProvider>,
  );
}

const shown = (): string | null => screen.getByTestId('user').textContent;
const stored = makeUser({ id: 7, username: 'ada' });

function storeSession(user: User = stored) {
  localStorage.setItem(StorageKeys.user, JSON.stringify(user));
  localStorage.setItem(StorageKeys.recentSongs, JSON.stringify([makeSong(1)]));
}

function expectLoggedOut() {
  expect(shown()).toBe('none');
  expect(localStorage.getItem('userdata')).toBeNull();
  expect(localStorage.getItem('song')).toBeNull();
}

describe('current user', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    auth = undefined;
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('is null at once when nothing is stored', () => {
    const api = mockApi({});
    renderAuth();
    expect(shown()).toBe('none');
    expect(api.calls()).toEqual([]);
  });

  it('is unknown while the stored user is re-read, then replaced by the server copy', async () => {
    storeSession();
    const fresh = makeUser({ id: 7, username: 'ada', premium: true });
    const api = mockApi({ 'users.byId': () => fresh });
    renderAuth();
    expect(shown()).toBe('unknown');
    await flush();
    expect(shown()).toBe('ada');
    expect(api.calls()).toEqual(['GET /api/users/id/7']);
    expect(JSON.parse(localStorage.getItem('userdata') ?? '{}')).toEqual(fresh);
  });

  it.each([
    ['401', () => errorResponse(401, 'unauthorized', 'Please log in to continue')],
    ['403', () => errorResponse(403, 'forbidden', 'nope')],
    ['a network error', networkFailure],
  ])('logs out when the re-read answers %s, clearing userdata and recent songs', async (_case, answer) => {
    storeSession();
    const api = mockApi({
      'users.byId': answer,
      'auth.logout': () => new Response(null, { status: 204 }),
    });
    renderAuth();
    await flush();
    expectLoggedOut();
    expect(api.calls()).toContain('POST /api/auth/logout');
  });

  it('started offline, keeps the stored user (downloads play) and checks it once the connection is back', async () => {
    storeSession();
    const onLine = vi.spyOn(navigator, 'onLine', 'get').mockReturnValue(false);
    const api = mockApi({ 'users.byId': () => ({ ...stored, username: 'ada2' }) });
    renderAuth();
    await flush();
    expect(shown()).toBe('ada');
    expect(api.calls()).toEqual([]);
    // The 5-minute check is skipped while offline rather than logging out.
    await advance(AUTH_CHECK_INTERVAL_MS);
    expect(shown()).toBe('ada');
    expect(api.calls()).toEqual([]);

    onLine.mockReturnValue(true);
    await act(async () => {
      window.dispatchEvent(new Event('online'));
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(api.calls()).toEqual(['GET /api/users/id/7']);
    expect(shown()).toBe('ada2');
    onLine.mockRestore();
  });

  describe('a page the service worker answered with the offline shell (navigator.onLine may still say true)', () => {
    const markOffline = () => {
      const meta = document.createElement('meta');
      meta.name = OFFLINE_SHELL_META;
      meta.content = '1';
      document.head.append(meta);
      return () => meta.remove();
    };

    it('keeps the stored user, and no answer is no reason to log out: it asks again until the server answers', async () => {
      storeSession();
      const unmark = markOffline();
      let answer: () => Promise<Response> | User = networkFailure;
      const api = mockApi({ 'users.byId': () => answer() });
      renderAuth();
      await flush();
      expect(shown()).toBe('ada');
      expect(api.calls()).toEqual([]);
      await advance(RECONNECT_CHECK_MS);
      expect(api.calls()).toEqual(['GET /api/users/id/7']);
      expect(shown()).toBe('ada');
      expect(localStorage.getItem('userdata')).not.toBeNull();
      // Once the server answers, the user is replaced and the page stops asking.
      answer = () => ({ ...stored, username: 'ada3' });
      await advance(RECONNECT_CHECK_MS);
      expect(shown()).toBe('ada3');
      const calls = api.calls().length;
      await advance(RECONNECT_CHECK_MS);
      expect(api.calls()).toHaveLength(calls);
      unmark();
    });

    it('stops waiting when the user logs out meanwhile: the server answering later signs nobody back in', async () => {
      storeSession();
      const unmark = markOffline();
      const api = mockApi({ 'users.byId': () => stored, 'auth.logout': networkFailure });
      renderAuth();
      await flush();
      expect(shown()).toBe('ada');
      await act(async () => {
        await auth?.logout();
      });
      expectLoggedOut();
      await advance(RECONNECT_CHECK_MS * 3);
      expect(api.calls().filter((call) => call.startsWith('GET'))).toEqual([]);
      expectLoggedOut();
      unmark();
    });

    it('keeps waiting through answers that do not end a session (429, 5xx)', async () => {
      storeSession();
      const unmark = markOffline();
      let call = 0;
      mockApi({
        'users.byId': () => {
          call += 1;
          if (call === 1) return errorResponse(429, 'too-many-requests', 'Slow down');
          if (call === 2) return errorResponse(503, 'unavailable', 'Busy');
          return { ...stored, username: 'ada4' };
        },
      });
      renderAuth();
      await flush();
      await advance(RECONNECT_CHECK_MS);
      await advance(RECONNECT_CHECK_MS);
      expect(shown()).toBe('ada');
      await advance(RECONNECT_CHECK_MS);
      expect(shown()).toBe('ada4');
      unmark();
    });

    it('logs out when the server, once reached, says the session is gone', async () => {
      storeSession();
      const unmark = markOffline();
      const api = mockApi({
        'users.byId': () => errorResponse(401, 'unauthorized', 'Please log in to continue'),
        'auth.logout': () => new Response(null, { status: 204 }),
      });
      renderAuth();
      await flush();
      expect(shown()).toBe('ada');
      await advance(RECONNECT_CHECK_MS);
      expectLoggedOut();
      expect(api.calls()).toContain('POST /api/auth/logout');
      unmark();
    });
  });

  it('checks GET /api/auth/me every 5 minutes and logs out when it is not ok', async () => {
    storeSession();
    let meAnswer = (): Response => jsonResponse(stored);
    const api = mockApi({
      'users.byId': () => stored,
      'auth.me': () => meAnswer(),
      'auth.logout': () => new Response(null, { status: 204 }),
    });
    renderAuth();
    await flush();
    expect(AUTH_CHECK_INTERVAL_MS).toBe(300_000);

    await advance(299_999);
    expect(api.calls().filter((call) => call === 'GET /api/auth/me')).toHaveLength(0);
    await advance(1);
    expect(api.calls().filter((call) => call === 'GET /api/auth/me')).toHaveLength(1);
    expect(shown()).toBe('ada');

    meAnswer = () => errorResponse(401, 'unauthorized', 'Please log in to continue');
    await advance(300_000);
    expect(api.calls().filter((call) => call === 'GET /api/auth/me')).toHaveLength(2);
    expectLoggedOut();

    await advance(900_000);
    expect(api.calls().filter((call) => call === 'GET /api/auth/me')).toHaveLength(2);
  });

  it('logs out when the periodic check cannot reach the server', async () => {
    storeSession();
    mockApi({
      'users.byId': () => stored,
      'auth.me': networkFailure,
      'auth.logout': networkFailure,
    });
    renderAuth();
    await flush();
    await advance(AUTH_CHECK_INTERVAL_MS);
    expectLoggedOut();
  });

  it('says "Please log in" and logs out at once when any other request answers 401 (the session ended)', async () => {
    storeSession();
    mockApi({
      'users.byId': () => stored,
      'songs.list': () => errorResponse(401, 'unauthorized', 'Please log in to continue'),
      'auth.logout': () => new Response(null, { status: 204 }),
    });
    renderAuth();
    await flush();
    expect(shown()).toBe('ada');
    await act(async () => {
      await client.songs.list().catch(() => undefined);
    });
    await flush();
    expectLoggedOut();
    expect(screen.getByRole('alert').textContent).toContain(ServerMessages.notAuthenticated);
  });

  it('login stores the user under `userdata`', async () => {
    const api = mockApi({ 'auth.login': () => stored });
    renderAuth();
    await act(async () => {
      await auth?.login({ username: 'ada', password: 'correct horse' });
    });
    expect(shown()).toBe('ada');
    expect(JSON.parse(localStorage.getItem('userdata') ?? '{}')).toMatchObject({ id: 7 });
    const request = api.requests('auth.login')[0];
    expect(request?.credentials).toBe('include');
    expect(await request?.json()).toEqual({ username: 'ada', password: 'correct horse' });
  });

  it('register logs in automatically with the same credentials', async () => {
    const api = mockApi({
      'auth.register': () => textResponse('User registered successfully', 201),
      'auth.login': () => stored,
    });
    renderAuth();
    let message = '';
    await act(async () => {
      message = (await auth?.register({ username: 'ada', email: 'ada@example.com', password: 'correct horse' })) ?? '';
    });
    expect(message).toBe('User registered successfully');
    expect(api.calls()).toEqual(['POST /api/auth/register', 'POST /api/auth/login']);
    expect(shown()).toBe('ada');
  });

  it('logout calls the server and clears userdata and the recent songs', async () => {
    storeSession();
    const api = mockApi({
      'users.byId': () => stored,
      'auth.logout': () => new Response(null, { status: 204 }),
    });
    renderAuth();
    await flush();
    await act(async () => {
      await auth?.logout();
    });
    expectLoggedOut();
    expect(api.calls()).toContain('POST /api/auth/logout');
  });

  it('keeps each user’s downloads to themself: put aside at logout, back at their next login, never shown to another', async () => {
    storeSession();
    const mine = JSON.stringify([makeSong(3)]);
    const other = makeUser({ id: 8, username: 'bob' });
    let next: User = other;
    mockApi({
      'users.byId': () => stored,
      'auth.logout': () => new Response(null, { status: 204 }),
      'auth.login': () => next,
    });
    // Downloaded while signed in before downloads were kept per user: the stored user's.
    localStorage.setItem('downloadedSong', mine);
    renderAuth();
    await flush();
    expect(localStorage.getItem('downloadedSong')).toBe(mine);

    await act(async () => {
      await auth?.logout();
    });
    expect(localStorage.getItem('downloadedSong')).toBeNull();

    await act(async () => {
      await auth?.login({ username: 'bob', password: 'correct horse' });
    });
    expect(shown()).toBe('bob');
    expect(localStorage.getItem('downloadedSong')).toBeNull();
    await act(async () => {
      await auth?.logout();
    });

    next = stored;
    await act(async () => {
      await auth?.login({ username: 'ada', password: 'correct horse' });
    });
    expect(localStorage.getItem('downloadedSong')).toBe(mine);
  });

  it('drops a downloaded list nobody can be said to own (left by a logout before downloads were per user)', async () => {
    localStorage.setItem('downloadedSong', JSON.stringify([makeSong(3)]));
    mockApi({ 'auth.login': () => stored });
    renderAuth();
    await act(async () => {
      await auth?.login({ username: 'ada', password: 'correct horse' });
    });
    expect(localStorage.getItem('downloadedSong')).toBeNull();
  });

  it('logoutEverywhere ends every session on the server, then logs out here', async () => {
    storeSession();
    const api = mockApi({
      'users.byId': () => stored,
      'auth.logoutAll': () => new Response(null, { status: 204 }),
      'auth.logout': () => errorResponse(401, 'unauthorized', 'Please log in to continue'),
    });
    renderAuth();
    await flush();
    await act(async () => {
      await auth?.logoutEverywhere();
    });
    expectLoggedOut();
    expect(api.calls()).toContain('POST /api/auth/logout-all');
  });

  it('logoutEverywhere with revokeAppKeys also signs Subsonic apps out, on the server, then logs out here', async () => {
    storeSession();
    const api = mockApi({
      'users.byId': () => stored,
      'auth.logoutAllWithAppKeys': () => new Response(null, { status: 204 }),
      'auth.logout': () => errorResponse(401, 'unauthorized', 'Please log in to continue'),
    });
    renderAuth();
    await flush();
    await act(async () => {
      await auth?.logoutEverywhere({ revokeAppKeys: true });
    });
    expectLoggedOut();
    expect(api.calls()).toContain('POST /api/auth/logout-all/with-app-keys');
    expect(api.calls()).not.toContain('POST /api/auth/logout-all');
  });

  it('logoutEverywhere keeps the user signed in when the server could not do it', async () => {
    storeSession();
    mockApi({
      'users.byId': () => stored,
      'auth.logoutAll': () => errorResponse(500, 'internal-error', 'Something went wrong'),
    });
    renderAuth();
    await flush();
    let failure: unknown;
    await act(async () => {
      await auth?.logoutEverywhere().catch((error: unknown) => {
        failure = error;
      });
    });
    expect(failure).toBeInstanceOf(Error);
    expect(shown()).toBe('ada');
    expect(localStorage.getItem('userdata')).not.toBeNull();
  });
});

import { queryOptions } from '@tanstack/react-query';
import { api } from '../../lib/api.js';

export const mediaKeys = {
  all: ['media'] as const,
  capabilities: () => [...mediaKeys.all, 'capabilities'] as const,
};

export const mediaQueries = {
  /** Whether the server converts audio (ffmpeg found at its start); it changes only with a restart of the server. */
  capabilities: () =>
    queryOptions({
      queryKey: mediaKeys.capabilities(),
      queryFn: ({ signal }) => api.media.capabilities({}, { signal }),
      staleTime: 5 * 60_000,
      retry: false,
    }),
};

/** What Subsonic apps sign in with (issue 13): the user's app password (whether there is one) and API keys. */
export const subsonicKeys = {
  all: ['subsonic'] as const,
  appPassword: (userId: number) => [...subsonicKeys.all, 'app-password', userId] as const,
  apiKeys: (userId: number) => [...subsonicKeys.all, 'api-keys', userId] as const,
};

export const subsonicQueries = {
  appPassword: (userId: number) =>
    queryOptions({
      queryKey: subsonicKeys.appPassword(userId),
      queryFn: ({ signal }) => api.appPassword.status({ id: userId }, { signal }),
    }),
  apiKeys: (userId: number) =>
    queryOptions({
      queryKey: subsonicKeys.apiKeys(userId),
      queryFn: ({ signal }) => api.apiKeys.list({ id: userId }, { signal }),
      select: (answer) => answer.apiKeys,
    }),
};

/** The listener's scrobbling accounts (issue 28). */
export const scrobblingKeys = { all: ['scrobbling'] as const };

export const scrobblingQueries = {
  accounts: () =>
    queryOptions({
      queryKey: scrobblingKeys.all,
      queryFn: ({ signal }) => api.scrobbling.accounts({}, { signal }),
    }),
};

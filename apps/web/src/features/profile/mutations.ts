import type { ScrobbleService } from '@tonearm/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { scrobblingKeys, subsonicKeys } from './queries.js';

/** Generates (or replaces) the app password; the answer holds it, shown this once. */
export function useGenerateAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => api.appPassword.create({ id: userId }),
    onSuccess: (_answer, userId) => {
      queryClient.setQueryData(subsonicKeys.appPassword(userId), { exists: true });
    },
  });
}

export function useRevokeAppPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: number) => api.appPassword.revoke({ id: userId }),
    onSettled: (_answer, _error, userId) => {
      void queryClient.invalidateQueries({ queryKey: subsonicKeys.appPassword(userId) });
    },
  });
}

/** Creates an API key; the answer holds the key, shown this once. */
export function useCreateApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, name }: { userId: number; name: string }) =>
      api.apiKeys.create({ id: userId, body: { name } }),
    onSuccess: (_answer, { userId }) => {
      void queryClient.invalidateQueries({ queryKey: subsonicKeys.apiKeys(userId) });
    },
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, keyId }: { userId: number; keyId: number }) => api.apiKeys.revoke({ id: userId, keyId }),
    onSettled: (_answer, _error, { userId }) => {
      void queryClient.invalidateQueries({ queryKey: subsonicKeys.apiKeys(userId) });
    },
  });
}

type Connect =
  | { service: 'listenbrainz'; body: { token: string } }
  | { service: 'lastfm'; body: { apiKey: string; secret: string; sessionKey: string } };

/** Connects a scrobbling service (checked with the service by the server). */
export function useConnectScrobbling() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (connect: Connect) =>
      connect.service === 'listenbrainz'
        ? api.scrobbling.connectListenBrainz({ body: connect.body })
        : api.scrobbling.connectLastFm({ body: connect.body }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: scrobblingKeys.all });
    },
  });
}

export function useDisconnectScrobbling() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (service: ScrobbleService) => api.scrobbling.disconnect({ service }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: scrobblingKeys.all });
    },
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../lib/api.js';
import { subsonicKeys } from './queries.js';

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

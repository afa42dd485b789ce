import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateUserRequest, UpdateUserRequest, User } from '@tonearm/contract';
import { api } from '../../lib/api.js';
import { useAuth } from '../../shell/auth/useAuth.js';
import { userKeys } from './queries.js';

/** A changed account: the admin list refetches, and when it is the signed-in user the stored copy is replaced. */
function useUserChanged() {
  const queryClient = useQueryClient();
  const { user, replaceUser } = useAuth();
  return (changed: User): void => {
    void queryClient.invalidateQueries({ queryKey: userKeys.all });
    if (user?.id === changed.id) replaceUser(changed);
  };
}

/** Self (profile, password with the current one) or admin (also role and premium). */
export function useUpdateUser() {
  const changed = useUserChanged();
  return useMutation({
    mutationFn: ({ userId, changes }: { userId: number; changes: UpdateUserRequest }) =>
      api.users.update({ id: userId, body: changes }),
    onSuccess: changed,
  });
}

/** One's own account with the current password; an admin deleting another sends no body. */
export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, currentPassword }: { userId: number; currentPassword?: string }) =>
      api.users.remove({ id: userId, body: currentPassword === undefined ? undefined : { currentPassword } }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

/** An admin opens an account; the answer is the new account. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (account: CreateUserRequest) => api.users.create({ body: account }),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

export function useUploadPhoto() {
  const changed = useUserChanged();
  return useMutation({
    mutationFn: ({ userId, image }: { userId: number; image: File }) =>
      api.users.updatePhoto({ id: userId, form: { image } }),
    onSuccess: changed,
  });
}

export function useRemovePhoto() {
  const changed = useUserChanged();
  return useMutation({
    mutationFn: (userId: number) => api.users.removePhoto({ id: userId }),
    onSuccess: changed,
  });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateUserRequest, UpdateUserRequest, User } from '@tonearm/contract';
import { useAuth } from '../../shell/auth/useAuth.js';
import { userKeys } from './queries.js';
import { createUser, deleteUser, removeUserPhoto, updateUser, uploadUserPhoto } from './users.api.js';

/** A changed account: the admin list refetches, and when it is the signed-in user the stored copy is replaced. */
function useUserChanged() {
  const queryClient = useQueryClient();
  const { user, replaceUser } = useAuth();
  return (changed: User): void => {
    void queryClient.invalidateQueries({ queryKey: userKeys.all });
    if (user?.id === changed.id) replaceUser(changed);
  };
}

export function useUpdateUser() {
  const changed = useUserChanged();
  return useMutation({
    mutationFn: ({ userId, changes }: { userId: number; changes: UpdateUserRequest }) => updateUser(userId, changes),
    onSuccess: changed,
  });
}

export function useDeleteUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, currentPassword }: { userId: number; currentPassword?: string }) =>
      deleteUser(userId, currentPassword),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (account: CreateUserRequest) => createUser(account),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
  });
}

export function useUploadPhoto() {
  const changed = useUserChanged();
  return useMutation({
    mutationFn: ({ userId, image }: { userId: number; image: File }) => uploadUserPhoto(userId, image),
    onSuccess: changed,
  });
}

export function useRemovePhoto() {
  const changed = useUserChanged();
  return useMutation({
    mutationFn: (userId: number) => removeUserPhoto(userId),
    onSuccess: changed,
  });
}

import { accountSchema, userSchema, type DeleteOwnAccountRequest, type User } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { updateAuthUser } from '../../../state/auth';

/** After a change to one's own account: the stored user follows, and lists showing it refresh. */
function useOwnAccountMutation<Input>(call: (input: Input) => Promise<User>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (user) => {
      updateAuthUser(userSchema.parse(user));
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: ['user', 'me'] }),
        queryClient.invalidateQueries({ queryKey: ['profiles'] }),
        queryClient.invalidateQueries({ queryKey: ['accounts'] }),
      ]);
    },
  });
}

/** PUT /api/user {_id, name}: one's own name. */
export function useUpdateOwnName() {
  return useOwnAccountMutation(({ _id, name }: { _id: string; name: string }) =>
    apiFetch('/user', { method: 'PUT', body: { _id, name }, schema: accountSchema }),
  );
}

/** POST /api/user/profile/:id (multipart `file`): a new avatar, resized by the server. */
export function useUploadAvatar() {
  return useOwnAccountMutation(({ _id, file }: { _id: string; file: File }) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return apiFetch(`/user/profile/${encodeURIComponent(_id)}`, { method: 'POST', body: form, schema: userSchema });
  });
}

/** DELETE /api/user/profile/:id: back to the initial letter. */
export function useDeleteAvatar() {
  return useOwnAccountMutation((_id: string) =>
    apiFetch(`/user/profile/${encodeURIComponent(_id)}`, { method: 'DELETE', schema: userSchema }),
  );
}

/** POST /api/user/account: deletes one's own account (reason and password). */
export function useDeleteOwnAccount() {
  return useMutation({
    mutationFn: (body: DeleteOwnAccountRequest) => apiFetch('/user/account', { method: 'POST', body }),
  });
}

import { userSchema, type DeleteOwnAccountRequest, type User, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
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
  return useOwnAccountMutation(({ _id, name }: { _id: string; name: string }) => callApi(apiCalls.user_update, { body: { _id, name } }));
}

/** POST /api/user/profile/:id (multipart `file`): a new avatar, resized by the server. */
export function useUploadAvatar() {
  return useOwnAccountMutation(({ _id, file }: { _id: string; file: File }) => {
    const form = new FormData();
    form.append('file', file, file.name);
    return callApi(apiCalls.user_avatar, { params: { id: _id }, body: form });
  });
}

/** DELETE /api/user/profile/:id: back to the initial letter. */
export function useDeleteAvatar() {
  return useOwnAccountMutation((_id: string) => callApi(apiCalls.user_avatar_delete, { params: { id: _id } }));
}

/** POST /api/user/account: deletes one's own account (reason and password). */
export function useDeleteOwnAccount() {
  return useMutation({
    mutationFn: (body: DeleteOwnAccountRequest) => callApi(apiCalls.user_delete_own, { body }),
  });
}

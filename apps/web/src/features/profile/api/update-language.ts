import { userSchema, type AccountLanguage } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { updateAuthUser } from '../../../state/auth';

/** PUT /api/user/language {language}: the signed-in account's language (its e-mails are written in it). */
export function updateOwnLanguage(language: AccountLanguage) {
  return apiFetch('/user/language', { method: 'PUT', body: { language }, schema: userSchema });
}

/** Saves the account's language; the stored user follows. */
export function useUpdateOwnLanguage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateOwnLanguage,
    onSuccess: (user) => {
      updateAuthUser(user);
      return queryClient.invalidateQueries({ queryKey: ['user', 'me'] });
    },
  });
}

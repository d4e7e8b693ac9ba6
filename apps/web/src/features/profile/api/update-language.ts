import { type AccountLanguage, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { updateAuthUser } from '../../../state/auth';

/** PUT /api/user/language {language}: the signed-in account's language (its e-mails are written in it). */
export function updateOwnLanguage(language: AccountLanguage) {
  return callApi(apiCalls.language_change, { body: { language } });
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

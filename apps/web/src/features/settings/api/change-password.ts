import { type ChangePasswordRequest, apiCalls } from '@bogwan/contracts';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { authStore } from '../../../state/auth';

interface ChangePasswordAnswer {
  message: string;
  /** The access token of this session; every other session has ended. */
  token: string;
}

/** PUT /api/user/password; this session continues with the token of the answer. */
export async function changePassword(body: ChangePasswordRequest): Promise<ChangePasswordAnswer> {
  const answer = await callApi(apiCalls.password_change, { body });
  const current = authStore.get();
  if (current) authStore.set({ ...current, token: answer.token });
  return answer;
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

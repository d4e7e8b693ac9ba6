import { type ChangePasswordRequest, apiCalls } from '@bogwan/contracts';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { authStore } from '../../../state/auth';

interface ChangePasswordAnswer {
  message: string;
  /** The access token of this session; every other session has ended. */
  token: string;
}

/** Checks the answer's shape: `{success: true, message, token}`. */
const changePasswordAnswer = {
  parse(data: unknown): ChangePasswordAnswer {
    const answer = (data ?? {}) as Record<string, unknown>;
    if (answer.success !== true || typeof answer.token !== 'string' || !answer.token) throw new Error('unexpected answer');
    return { message: typeof answer.message === 'string' ? answer.message : '', token: answer.token };
  },
};

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

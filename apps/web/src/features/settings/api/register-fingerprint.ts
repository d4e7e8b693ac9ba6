import { type WebauthnRegisterRequest, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ApiError, callApi } from '../../../api/client';
import { createCredential } from '../../../api/webauthn';
import { factorsQueryOptions } from './get-factors';

/** POST /api/auth/generate: creation options (challenge) for a new fingerprint. */
export function getRegistrationOptions(): Promise<Record<string, unknown>> {
  return callApi(apiCalls.fingerprint_options);
}

/** `{success, message}`: a refusal without an error status still fails. */
const saveAnswer = {
  parse(data: unknown): string {
    const answer = (data ?? {}) as Record<string, unknown>;
    const message = typeof answer.message === 'string' ? answer.message : '';
    if (answer.success !== true) throw new ApiError(400, message || 'request_error_message');
    return message || 'register_fingerprint_complete_message';
  },
};

/** PUT /api/auth: stores the credential the browser created; resolves to the answer's message key. */
export async function saveFingerprint(body: WebauthnRegisterRequest): Promise<string> {
  const data = await callApi(apiCalls.fingerprint_register, { body });
  return saveAnswer.parse(data);
}

/** The whole registration: options, the browser's fingerprint dialog, then saving it with the current password. */
export async function registerFingerprint({ userId, currentPassword }: { userId: string; currentPassword: string }): Promise<string> {
  const options = await getRegistrationOptions();
  const response = await createCredential(options);
  return saveFingerprint({ _id: userId, credentialId: String(response.id), response, currentPassword });
}

export function useRegisterFingerprint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerFingerprint,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: factorsQueryOptions.queryKey }),
  });
}

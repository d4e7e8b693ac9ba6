import { type OtpQrRequest, type OtpQrResponse, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { factorsQueryOptions } from './get-factors';

/** POST /api/auth/login/otp: a new (pending) authenticator secret and its QR code (the current password confirms it). */
export function getOtpQrCode(body: OtpQrRequest): Promise<OtpQrResponse> {
  return callApi(apiCalls.otp_register, { body });
}

export function useOtpQrCode() {
  return useMutation({ mutationFn: getOtpQrCode });
}

/**
 * POST /api/auth/verify/otp with `login: false`: confirms the registration with a code
 * from the app. Resolves to the answer's message key; rejects with it when `success` is false.
 */
export async function confirmOtpApp({ email, otp }: { email: string; otp: string }): Promise<string> {
  const answer = await callApi(apiCalls.verify_otp, { body: { email, otp, login: false } });
  if (!answer.success) throw new OtpRejected();
  return answer.message ?? 'register_otp_app_complete_message';
}

/** The server answered `success: false`: the code did not match. */
export class OtpRejected extends Error {
  constructor() {
    super('login_failure_otp');
    this.name = 'OtpRejected';
  }
}

export function useConfirmOtpApp() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: confirmOtpApp,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: factorsQueryOptions.queryKey }),
  });
}

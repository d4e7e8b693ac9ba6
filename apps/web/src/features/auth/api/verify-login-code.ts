import { type AuthResponse, apiCalls } from '@bogwan/contracts';
import { useMutation } from '@tanstack/react-query';
import { ApiError, callApi } from '../../../api/client';

interface VerifyLoginCodeInput {
  email: string;
  otp: string;
}

/**
 * POST /api/auth/verify/otp with `login: true`: finishes a sign-in that asked for a second
 * factor (email code or authenticator app); the attempt cookie ties it to that sign-in.
 */
export async function verifyLoginCode({ email, otp }: VerifyLoginCodeInput): Promise<AuthResponse> {
  const result = await callApi(apiCalls.verify_otp, { body: { email, otp, login: true } });
  if (!result.success || !result.user || !result.token) throw new ApiError(401, result.message ?? 'login_failure_otp');
  return { user: result.user, token: result.token };
}

export function useVerifyLoginCode() {
  return useMutation({ mutationFn: verifyLoginCode });
}

import { type LoginRequest, type LoginResponse, apiCalls } from '@bogwan/contracts';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** POST /api/auth/login with email and password: signed in, or a second factor is needed. */
export function login(body: LoginRequest): Promise<LoginResponse> {
  return callApi(apiCalls.login, { body });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}

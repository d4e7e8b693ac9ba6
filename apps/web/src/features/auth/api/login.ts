import { loginResponseSchema, type LoginRequest, type LoginResponse } from '@bogwan/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

/** POST /api/auth/login with email and password: signed in, or a second factor is needed. */
export function login(body: LoginRequest): Promise<LoginResponse> {
  return apiFetch('/auth/login', { method: 'POST', body, schema: loginResponseSchema });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}

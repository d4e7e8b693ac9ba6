import { authResponseSchema, type AuthResponse, type LoginRequest } from '@bogwan/contracts';
import { useMutation } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

/** POST /api/auth/login with email and password. */
export function login(body: LoginRequest): Promise<AuthResponse> {
  return apiFetch('/auth/login', { method: 'POST', body, schema: authResponseSchema });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}

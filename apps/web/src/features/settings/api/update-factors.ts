import { factorsSchema, type Factors, type MfaMethod } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { factorsQueryOptions } from './get-factors';

/** PUT /api/auth/factors: chooses the second factor asked for after the password. */
export function updateFactors(mfa: MfaMethod): Promise<Factors> {
  return apiFetch('/auth/factors', { method: 'PUT', body: { mfa }, schema: factorsSchema });
}

export function useUpdateFactors() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFactors,
    onSuccess: (factors) => queryClient.setQueryData(factorsQueryOptions.queryKey, factors),
  });
}

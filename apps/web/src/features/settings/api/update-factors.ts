import { factorsSchema, type Factors, type UpdateFactorsRequest } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { factorsQueryOptions } from './get-factors';

/** PUT /api/auth/factors: chooses the second factor asked for after the password (the current password confirms it). */
export function updateFactors(body: UpdateFactorsRequest): Promise<Factors> {
  return apiFetch('/auth/factors', { method: 'PUT', body, schema: factorsSchema });
}

export function useUpdateFactors() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFactors,
    onSuccess: (factors) => queryClient.setQueryData(factorsQueryOptions.queryKey, factors),
  });
}

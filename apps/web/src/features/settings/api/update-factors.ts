import { type Factors, type UpdateFactorsRequest, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { factorsQueryOptions } from './get-factors';

/** PUT /api/auth/factors: chooses the second factor asked for after the password (the current password confirms it). */
export function updateFactors(body: UpdateFactorsRequest): Promise<Factors> {
  return callApi(apiCalls.factors_update, { body });
}

export function useUpdateFactors() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateFactors,
    onSuccess: (factors) => queryClient.setQueryData(factorsQueryOptions.queryKey, factors),
  });
}

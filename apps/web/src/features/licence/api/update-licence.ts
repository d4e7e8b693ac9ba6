import { licenceUpdateResponseSchema, type LicenceUpdateRequest, type LicenceUpdateResponse } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { licenceCheckQueryOptions } from './get-licence-check';
import { licenceQueryOptions } from './get-licence';

/** PUT /api/system/license with a new key. */
export function updateLicence(body: LicenceUpdateRequest): Promise<LicenceUpdateResponse> {
  return apiFetch('/system/license', { method: 'PUT', body, schema: licenceUpdateResponseSchema });
}

export function useUpdateLicence() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateLicence,
    onSuccess: async () => {
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: licenceCheckQueryOptions.queryKey }),
        queryClient.invalidateQueries({ queryKey: licenceQueryOptions.queryKey }),
      ]);
    },
  });
}

import { type LicenceUpdateRequest, type LicenceUpdateResponse, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { licenceCheckQueryOptions } from './get-licence-check';
import { licenceQueryOptions } from './get-licence';

/** PUT /api/system/license with a new key. */
export function updateLicence(body: LicenceUpdateRequest): Promise<LicenceUpdateResponse> {
  return callApi(apiCalls.license_update, { body });
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

import { apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { refreshFiles } from './keys';

/** PUT /api/file/star `{path, starred}`. */
export function starItem(input: { path: string; starred: boolean }): Promise<unknown> {
  return callApi(apiCalls.file_star, { body: input });
}

export function useStarItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (inputs: { path: string; starred: boolean }[]) => {
      for (const input of inputs) await starItem(input);
    },
    onSettled: () => refreshFiles(queryClient),
  });
}

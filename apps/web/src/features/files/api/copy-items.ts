import { useMutation, useQueryClient } from '@tanstack/react-query';
import { refreshFiles } from './keys';
import { transferItems, type TransferInput } from './move-items';

/** POST /api/file/copy for each item; a name clash keeps both. */
export function useCopyItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TransferInput) => transferItems('copy', input),
    onSettled: () => refreshFiles(queryClient),
  });
}

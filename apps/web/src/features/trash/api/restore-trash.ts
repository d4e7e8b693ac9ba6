import { type TrashEntry, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { ApiError, callApi } from '../../../api/client';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';

/** POST /api/trash/restore `{ids}`: puts items back where they were (all or none). */
export function restoreTrash(ids: string[]): Promise<{ count: number }> {
  return callApi(apiCalls.trash_restore, { body: { ids } });
}

export function useRestoreTrash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreTrash,
    // The folders the items return to change too.
    onSettled: () => queryClient.invalidateQueries(),
  });
}

/** Restores one entry and says so (or why not) in a notice; for the trash tables' restore buttons. */
export function useRestoreEntry() {
  const { t } = useTranslation();
  const restore = useRestoreTrash();
  const start = (entry: TrashEntry) =>
    restore.mutate([entry._id], {
      onSuccess: () => notify(t('trash_restore_complete_message', { name: entry.name })),
      onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
    });
  return { start, isPending: restore.isPending };
}

import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { authStore } from '../../../state/auth';
import { getPermission } from '../api/get-permission';
import { useMoveItems } from '../api/move-items';
import type { DraggedItem } from '../lib/drag-items';
import { isWithin, parentOf } from '../lib/storage-path';

/**
 * Items of the app dropped on a folder (of the tree or of the list) move there after
 * `confirm_move_dir_message`; a USER needs MOVE where they come from, and a folder never goes
 * into itself. `dialog` is the confirmation to render; `onMoved` hears the target folder.
 */
export function useDropMove(onMoved?: (target: string) => void): { onDropItems: (target: string, items: DraggedItem[]) => void; dialog: ReactNode } {
  const { t } = useTranslation();
  const move = useMoveItems();
  const [pending, setPending] = useState<{ target: string; items: DraggedItem[] } | null>(null);

  const onDropItems = (target: string, items: DraggedItem[]) => {
    const movable = items.filter((item) => parentOf(item.path) !== target && item.path !== target);
    if (movable.length === 0) return;
    if (movable.some((item) => item.folder && isWithin(target, item.path))) {
      notify(t('move_into_itself_warning'), 'warning');
      return;
    }
    setPending({ target, items: movable });
  };

  const confirm = async () => {
    if (!pending) return;
    const { target, items } = pending;
    setPending(null);
    // A USER needs MOVE where the items are.
    if (authStore.get()?.user.role === 'USER') {
      const sources = [...new Set(items.map((item) => parentOf(item.path)))];
      const allowed = await Promise.all(sources.map(async (source) => (await getPermission(source)).includes('MOVE')));
      if (allowed.includes(false)) {
        notify(t('no_access_warning'), 'error');
        return;
      }
    }
    move.mutate(
      { items, newPath: target },
      {
        onSuccess: () => {
          notify(t('move_items_complete_message'), 'success');
          onMoved?.(target);
        },
        onError: (error) => {
          notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error');
        },
      },
    );
  };

  const dialog = (
    <ConfirmDialog
      open={pending !== null}
      title={t('move')}
      message={pending ? t('confirm_move_dir_message', { count: pending.items.length, folder: pending.target }) : ''}
      confirmLabel={t('move')}
      onConfirm={() => void confirm()}
      onClose={() => setPending(null)}
    />
  );
  return { onDropItems, dialog };
}

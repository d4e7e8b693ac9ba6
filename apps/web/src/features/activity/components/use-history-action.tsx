import { mdiHistory } from '@mdi/js';
import { lazy, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExtraItemAction } from '../../../lib/item-actions';
import { Deferred } from '../../../components/deferred';
import type { HistoryItem } from './file-history-dialog';

const FileHistoryDialog = lazy(() => import('./file-history-dialog').then((m) => ({ default: m.FileHistoryDialog })));

/**
 * The file menu's "History" entry (one item at a time, for anyone who can see the item: the
 * server answers an account with its own records, administrators with everyone's), with
 * the dialog it opens.
 */
export function useHistoryAction(): { action: ExtraItemAction; dialog: ReactNode } {
  const { t } = useTranslation();
  const [item, setItem] = useState<HistoryItem | null>(null);
  const action: ExtraItemAction = {
    id: 'history',
    label: t('audit_history'),
    icon: mdiHistory,
    visible: (items, permissions) => items.length === 1 && permissions.includes('READ'),
    run: (items) => {
      const entry = items[0];
      if (entry) setItem({ nodeId: entry._id, path: entry.path, name: entry.name, folder: entry.folder });
    },
  };
  return {
    action,
    dialog: (
      <Deferred open={item !== null}>
        <FileHistoryDialog item={item} onClose={() => setItem(null)} />
      </Deferred>
    ),
  };
}

import { mdiFileClockOutline } from '@mdi/js';
import { lazy, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExtraItemAction } from '../../../../lib/item-actions';
import { Deferred } from '../../../../components/deferred';
import type { VersionsFile } from './file-versions-dialog';

const FileVersionsDialog = lazy(() => import('./file-versions-dialog').then((m) => ({ default: m.FileVersionsDialog })));

/**
 * The file menu's "Versions" entry (one file, for whoever may download it: listing and
 * downloading versions need the file's DOWNLOAD), with the dialog it opens.
 */
export function useVersionsAction(): { action: ExtraItemAction; dialog: ReactNode } {
  const { t } = useTranslation();
  const [file, setFile] = useState<VersionsFile | null>(null);
  const action: ExtraItemAction = {
    id: 'versions',
    label: t('versions'),
    icon: mdiFileClockOutline,
    visible: (items, permissions) => items.length === 1 && !items[0]!.folder && permissions.includes('DOWNLOAD'),
    run: (items) => {
      const entry = items[0];
      if (entry) setFile({ path: entry.path, name: entry.name });
    },
  };
  return {
    action,
    dialog: (
      <Deferred open={file !== null}>
        <FileVersionsDialog file={file} onClose={() => setFile(null)} />
      </Deferred>
    ),
  };
}

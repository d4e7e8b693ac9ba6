import { mdiFileClockOutline } from '@mdi/js';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { ExtraItemAction } from '../../../../lib/item-actions';
import { FileVersionsDialog, type VersionsFile } from './file-versions-dialog';

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
  return { action, dialog: <FileVersionsDialog file={file} onClose={() => setFile(null)} /> };
}

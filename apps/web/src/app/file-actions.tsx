import type { FileEntry } from '@bogwan/contracts';
import { lazy, Suspense, useCallback, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../api/client';
import { Deferred } from '../components/deferred';
import { notify } from '../components/notify';
import { downloadItems } from '../features/files/api/download-file';
import { storageHref } from '../features/files/lib/storage-path';
import type { PreviewFile } from '../features/preview/components/preview-overlay';
import { messageText } from '../i18n/keys';
import { useLocalePath } from '../i18n/use-locale';

// The overlay and the viewers load with the first preview opened.
const PreviewOverlay = lazy(() => import('../features/preview/components/preview-overlay').then((m) => ({ default: m.PreviewOverlay })));
// The overlay's history and versions buttons too (they are never on a page before it).
const FileHistoryButton = lazy(() => import('../features/activity/components/file-history-button').then((m) => ({ default: m.FileHistoryButton })));
const FileVersionsButton = lazy(() => import('../features/files/components/versions/file-versions-button').then((m) => ({ default: m.FileVersionsButton })));

export interface FileActions {
  /** A folder opens in the storage browser; a file opens in the preview overlay. */
  open: (entry: FileEntry) => void;
  download: (entries: Array<Pick<FileEntry, 'path' | 'name' | 'folder'>>) => void;
  /** The preview overlay, to render once in the page. */
  overlay: ReactNode;
}

/** Opening and downloading files, shared by the storage browser and the Home, Recent and Starred lists. */
export function useFileActions(): FileActions {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [previewing, setPreviewing] = useState<PreviewFile | null>(null);

  const download = useCallback(
    (entries: Array<Pick<FileEntry, 'path' | 'name' | 'folder'>>) => {
      downloadItems(entries).catch((error: unknown) => {
        notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error');
      });
    },
    [t],
  );

  const open = useCallback(
    (entry: FileEntry) => {
      if (entry.folder) void navigate(localePath(storageHref(entry.path)));
      else setPreviewing({ path: entry.path, name: entry.name, size: entry.size, nodeId: entry._id });
    },
    [navigate, localePath],
  );

  const overlay = (
    <Deferred open={previewing !== null}>
      <PreviewOverlay
        file={previewing}
        onClose={() => setPreviewing(null)}
        onDownload={(file) => download([{ path: file.path, name: file.name, folder: false }])}
        fileButtons={(file) => (
          <Suspense fallback={null}>
            <FileHistoryButton path={file.path} name={file.name} nodeId={file.nodeId} />
            <FileVersionsButton path={file.path} name={file.name} />
          </Suspense>
        )}
      />
    </Deferred>
  );
  return { open, download, overlay };
}

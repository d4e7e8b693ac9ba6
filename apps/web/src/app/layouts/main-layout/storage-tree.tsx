import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { refreshFiles } from '../../../features/files/api/keys';
import { NavFolderTree } from '../../../features/files/components/tree/nav-folder-tree';
import { storageHref, storagePathFromSplat } from '../../../features/files/lib/storage-path';
import { readDrop } from '../../../features/upload/lib/read-drop';
import { onUploadComplete, startUpload } from '../../../features/upload/upload-service';
import { useLocalePath } from '../../../i18n/use-locale';
import { stripLocale } from '../../../state/locale';

/** The storage folder open in the page, or null outside the storage browser. */
export function useCurrentStoragePath(): string | null {
  const path = stripLocale(useLocation().pathname);
  if (path !== '/storage' && !path.startsWith('/storage/')) return null;
  return storagePathFromSplat(path.slice('/storage'.length));
}

/** Refreshes file lists and usage when an upload finishes. */
export function useRefreshOnUpload(): void {
  const queryClient = useQueryClient();
  useEffect(() => onUploadComplete(() => void refreshFiles(queryClient)), [queryClient]);
}

/** The folder tree of the navigation's Storage group: moves dropped items, uploads dropped files. */
export function StorageTree({ onNavigate }: { onNavigate?: () => void }) {
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const current = useCurrentStoragePath();
  const go = useCallback(
    (path: string) => {
      onNavigate?.();
      void navigate(localePath(storageHref(path)));
    },
    [navigate, localePath, onNavigate],
  );
  const onDropFiles = useCallback(
    (path: string, dataTransfer: DataTransfer) => {
      // The drop's entries are read before anything yields.
      void readDrop(dataTransfer).then(async (files) => {
        if (await startUpload(path, files)) go(path);
      });
    },
    [go],
  );
  return <NavFolderTree currentPath={current} onNavigate={go} onDropFiles={onDropFiles} />;
}

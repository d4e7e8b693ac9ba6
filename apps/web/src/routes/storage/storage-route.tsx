import { useCallback } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useFileActions } from '../../app/file-actions';
import { FileExplorer } from '../../features/files/components/explorer/file-explorer';
import { storageHref, storagePathFromSplat } from '../../features/files/lib/storage-path';
import { useHistoryAction } from '../../features/activity/components/use-history-action';
import { useVersionsAction } from '../../features/files/components/versions/use-versions-action';
import { UploadButton } from '../../features/upload/components/upload-button';
import { useLocalePath } from '../../i18n/use-locale';
import { useSharingActions } from './use-sharing-actions';

/** /storage/{path...}: the file browser; the URL below /storage is the folder path. */
export function StorageRoute() {
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const path = storagePathFromSplat(useParams()['*'] ?? '') ?? '/';
  const actions = useFileActions();
  const sharing = useSharingActions(path);
  const history = useHistoryAction();
  const versions = useVersionsAction();
  const onNavigate = useCallback((target: string) => void navigate(localePath(storageHref(target))), [navigate, localePath]);

  return (
    <>
      <FileExplorer
        path={path}
        onNavigate={onNavigate}
        onOpenFile={actions.open}
        onDownload={actions.download}
        renderUpload={(canCreate) => <UploadButton targetPath={path} disabled={!canCreate} />}
        extraActions={[...sharing.actions, history.action, versions.action]}
      />
      {actions.overlay}
      {sharing.dialogs}
      {history.dialog}
      {versions.dialog}
    </>
  );
}

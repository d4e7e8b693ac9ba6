import { lazy } from 'react';
import { useNavigate } from 'react-router';
import { Deferred } from '../../../components/deferred';
import { storageHref } from '../../../features/files/lib/storage-path';
import { PageDropZone } from '../../../features/upload/components/page-drop-zone';
import { UploadConflictHost } from '../../../features/upload/components/upload-conflict-host';
import { useLocalePath } from '../../../i18n/use-locale';
import { useCurrentStoragePath, useRefreshOnUpload } from './storage-tree';

const UploadLocationDialog = lazy(() =>
  import('../../../features/files/components/dialogs/upload-location-dialog').then((m) => ({ default: m.UploadLocationDialog })),
);

/**
 * Files dragged onto any page: into the open folder in the storage browser (not at its
 * top, which holds root folders only), elsewhere into a folder a dialog asks for. The
 * upload list is in the task panel's upload tab (task-status.tsx). Names a drop or a pick
 * would take are asked about here, once per drop (the conflict dialog).
 */
export function FileDrop() {
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const current = useCurrentStoragePath();
  useRefreshOnUpload();
  return (
    <>
      <PageDropZone
        targetPath={current === '/' ? null : current}
        renderLocationDialog={(props) => (
          <Deferred open={props.open}>
            <UploadLocationDialog {...props} />
          </Deferred>
        )}
        onUploaded={(path) => void navigate(localePath(storageHref(path)))}
      />
      <UploadConflictHost />
    </>
  );
}

import { mdiHistory } from '@mdi/js';
import IconButton from '@mui/material/IconButton';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { Deferred } from '../../../components/deferred';
import { LazyTooltip } from '../../../components/lazy-tooltip';

const FileHistoryDialog = lazy(() => import('./file-history-dialog').then((m) => ({ default: m.FileHistoryDialog })));

/** The preview overlay's "History" button: the file's records in a dialog above the preview. */
export function FileHistoryButton({ path, name, nodeId }: { path: string; name: string; nodeId?: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <LazyTooltip title={t('audit_history')}>
        <IconButton aria-label={t('audit_history')} onClick={() => setOpen(true)} sx={{ color: 'inherit' }}>
          <MdiIcon path={mdiHistory} />
        </IconButton>
      </LazyTooltip>
      <Deferred open={open}>
        <FileHistoryDialog item={open ? { nodeId, path, name, folder: false } : null} onClose={() => setOpen(false)} />
      </Deferred>
    </>
  );
}

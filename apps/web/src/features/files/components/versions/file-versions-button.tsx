import { mdiFileClockOutline } from '@mdi/js';
import IconButton from '@mui/material/IconButton';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../../components/mdi-icon';
import { Deferred } from '../../../../components/deferred';
import { LazyTooltip } from '../../../../components/lazy-tooltip';

const FileVersionsDialog = lazy(() => import('./file-versions-dialog').then((m) => ({ default: m.FileVersionsDialog })));

/** The preview overlay's "Versions" button: the file's versions in a dialog above the preview. */
export function FileVersionsButton({ path, name }: { path: string; name: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <LazyTooltip title={t('versions')}>
        <IconButton aria-label={t('versions')} onClick={() => setOpen(true)} sx={{ color: 'inherit' }}>
          <MdiIcon path={mdiFileClockOutline} />
        </IconButton>
      </LazyTooltip>
      <Deferred open={open}>
        <FileVersionsDialog file={open ? { path, name } : null} onClose={() => setOpen(false)} />
      </Deferred>
    </>
  );
}

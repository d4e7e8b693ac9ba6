import { mdiFolderNetworkOutline } from '@mdi/js';
import IconButton from '@mui/material/IconButton';
import { lazy, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../../components/mdi-icon';
import { Deferred } from '../../../../components/deferred';
import { LazyTooltip } from '../../../../components/lazy-tooltip';

const ConnectDriveDialog = lazy(() => import('../dialogs/connect-drive-dialog').then((m) => ({ default: m.ConnectDriveDialog })));

/** The toolbar button that opens "connect as a drive" for the folder on screen. */
export function ConnectDriveButton({ path }: { path: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <LazyTooltip title={t('connect_drive')}>
        <IconButton aria-label={t('connect_drive')} onClick={() => setOpen(true)}>
          <MdiIcon path={mdiFolderNetworkOutline} />
        </IconButton>
      </LazyTooltip>
      <Deferred open={open}>
        <ConnectDriveDialog open={open} path={path} onClose={() => setOpen(false)} />
      </Deferred>
    </>
  );
}

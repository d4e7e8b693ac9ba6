import { mdiClose } from '@mdi/js';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon';
import { useLocale, useLocalePath } from '../../../i18n/use-locale';
import { useAuth } from '../../../state/auth';
import { useEvents } from '../api/get-events';
import { useNodeHistory } from '../api/get-node-history';
import { EMPTY_FILTER, filterToParams } from '../lib/audit-filter';
import { auditColumns } from './audit-columns';
import { AuditTable } from './audit-table';
import { useFullScreenDialog } from '../../../components/use-full-screen-dialog';

/** The item whose history is shown: by node id when known (it survives renames and moves), else by path. */
export interface HistoryItem {
  nodeId?: string;
  path: string;
  name: string;
  folder: boolean;
}

function useItemHistory(item: HistoryItem | null) {
  const byNode = useNodeHistory(item?.nodeId ?? null);
  // The path filter runs only when there is no node id (the preview knows the path alone).
  const byPath = useEvents(item && !item.nodeId ? { path: item.path } : { path: '' }, 50, Boolean(item && !item.nodeId));
  return item?.nodeId ? byNode : byPath;
}

/**
 * Who viewed, downloaded and changed one file or folder, newest first. Administrators see
 * everyone's records; others the server answers with their own only.
 */
export function FileHistoryDialog({ item, onClose }: { item: HistoryItem | null; onClose: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const localePath = useLocalePath();
  const fullScreen = useFullScreenDialog();
  const admin = (useAuth()?.user.roleLevel ?? 1) > 1;
  const history = useItemHistory(item);
  const columns = useMemo(() => auditColumns(t, locale, { person: true, target: Boolean(item?.folder) }), [t, locale, item?.folder]);
  const logHref = item ? `${localePath('/event')}?${filterToParams({ ...EMPTY_FILTER, path: item.path })}` : '';

  return (
    <Dialog open={item !== null} onClose={onClose} fullWidth maxWidth="lg" fullScreen={fullScreen} aria-labelledby="file-history-title">
      <DialogTitle id="file-history-title" sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 1 }}>
        <Typography component="span" variant="h6" noWrap sx={{ flexGrow: 1, minWidth: 0 }}>
          {t('audit_history_title', { name: item?.name ?? '' })}
        </Typography>
        <IconButton aria-label={t('close')} onClick={onClose}>
          <MdiIcon path={mdiClose} />
        </IconButton>
      </DialogTitle>
      <DialogContent>
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
          {t('audit_history_description')}
        </Typography>
        {item && <AuditTable label={t('audit_history_title', { name: item.name })} columns={columns} query={history} empty={t('audit_history_empty')} />}
        {admin && item && (
          <Button component={RouterLink} to={logHref} onClick={onClose} size="small" sx={{ mt: 1 }}>
            {t('audit_history_all')}
          </Button>
        )}
      </DialogContent>
    </Dialog>
  );
}

import { SETTINGS_PAGE_SIZE, type TrashEntry } from '@bogwan/contracts';
import { mdiDeleteSweepOutline, mdiRefresh } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { PagedTable } from '../../../components/paged-table';
import { usePaging } from '../../../components/use-paging';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useTrash } from '../api/get-trash';
import { usePurgeTrash } from '../api/purge-trash';
import { useRestoreEntry } from '../api/restore-trash';
import { RetentionForm } from './retention-form';
import { trashColumns } from './trash-table';
import { LazyTooltip } from '../../../components/lazy-tooltip';

/** What the confirmation asks about: one item, or the whole trash (null). */
type PurgeTarget = { entry: TrashEntry | null } | null;

/** The trash for administrators: who trashed what, when and from where; restore, delete for good, empty, retention. */
export function TrashView() {
  const { t } = useTranslation();
  const locale = useLocale();
  const paging = usePaging(SETTINGS_PAGE_SIZE);
  const trash = useTrash(paging.page * paging.rowsPerPage, paging.rowsPerPage);
  const restore = useRestoreEntry();
  const purge = usePurgeTrash();
  const [target, setTarget] = useState<PurgeTarget>(null);
  const total = trash.data?.total ?? 0;
  const failed = (error: unknown) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error');

  const columns = trashColumns(t, locale, {
    busy: restore.isPending || purge.isPending,
    restore: restore.start,
    purge: (entry) => setTarget({ entry }),
  });

  const confirmPurge = () => {
    if (!target) return;
    const { entry } = target;
    purge.mutate(entry?._id ?? null, {
      onSuccess: (result) => {
        notify(entry ? t('trash_delete_complete_message', { name: entry.name }) : t('trash_empty_complete_message', { n: result.count }));
        setTarget(null);
        // The last row of the last page went: show the page before it.
        if (entry && trash.data?.items.length === 1 && paging.page > 0) paging.setPage(paging.page - 1);
        if (!entry) paging.setPage(0);
      },
      onError: (error) => {
        failed(error);
        setTarget(null);
      },
    });
  };

  return (
    <Paper variant="outlined" sx={{ borderRadius: 2, p: 2 }}>
      <RetentionForm />
      <Divider sx={{ my: 2 }} />
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="subtitle2" sx={{ fontWeight: 700, flexGrow: 1 }}>
          {t('trash_items', { count: total })}
        </Typography>
        <Button
          color="error"
          variant="outlined"
          startIcon={<MdiIcon path={mdiDeleteSweepOutline} fontSize="small" />}
          disabled={total === 0 || purge.isPending}
          onClick={() => setTarget({ entry: null })}
        >
          {t('trash_empty')}
        </Button>
        <LazyTooltip title={t('refresh')}>
          <IconButton aria-label={t('refresh')} onClick={() => void trash.refetch()}>
            <MdiIcon path={mdiRefresh} />
          </IconButton>
        </LazyTooltip>
      </Box>
      <PagedTable
        label={t('nav_trash')}
        columns={columns}
        rows={trash.data?.items ?? []}
        rowKey={(row) => row._id}
        total={total}
        {...paging.props}
        loading={trash.isPending}
        error={trash.isError}
        empty={t('trash_empty_state')}
      />
      <ConfirmDialog
        open={target !== null}
        title={target?.entry ? t('trash_delete_forever') : t('trash_empty')}
        message={target?.entry ? t('trash_confirm_delete', { name: target.entry.name }) : t('trash_confirm_empty', { count: total })}
        confirmLabel={t('trash_delete_forever')}
        danger
        busy={purge.isPending}
        onConfirm={confirmPurge}
        onClose={() => setTarget(null)}
      />
    </Paper>
  );
}

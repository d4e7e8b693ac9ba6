import type { Restore } from '@bogwan/contracts';
import { mdiRefresh, mdiReplay, mdiStopCircleOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { type PagedColumn, PagedTable } from '../../../components/paged-table';
import { usePaging } from '../../../components/use-paging';
import { formatDateTime } from '../../../i18n/format-time';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useRestores, useRetryRestore, useStopRestore } from '../api/restores';
import { formatBytes } from '../../../lib/format-bytes';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { JobStatus } from './job-status';
import { LazyTooltip } from '../../../components/lazy-tooltip';

/** Restores, newest first: what, from which snapshot, where to, how it went; stop or retry. */
export function RestoreHistory() {
  const { t } = useTranslation();
  const locale = useLocale();
  const paging = usePaging(15);
  const restores = useRestores({ skip: paging.page * paging.rowsPerPage, limit: paging.rowsPerPage });
  const stop = useStopRestore();
  // Stopping a restore is asked first.
  const [stopping, setStopping] = useState<string | null>(null);
  const retry = useRetryRestore();
  const failed = (error: unknown) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error');

  const columns: PagedColumn<Restore>[] = [
    {
      id: 'snapshot',
      label: t('restore_snapshot'),
      render: (r) => (
        <Box>
          <Typography variant="body2">{r.planName}</Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary' }}>
            {formatDateTime(r.snapshotTime, locale)}
          </Typography>
        </Box>
      ),
    },
    {
      id: 'items',
      label: t('restore_items'),
      render: (r) => (
        <Box
          component="span"
          sx={{ display: 'block', maxWidth: 260, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
          title={r.items.join('\n')}
        >
          {r.items.join(', ')}
        </Box>
      ),
    },
    { id: 'target', label: t('restore_step_target'), render: (r) => (r.target.kind === 'original' ? t('restore_target_original') : r.target.path) },
    { id: 'status', label: t('column_status'), width: 150, render: (r) => <JobStatus status={r.status} progress={r.progress} error={r.error} /> },
    {
      id: 'files',
      label: t('snapshot_files'),
      align: 'right',
      render: (r) => (r.failed > 0 ? `${r.files} / ${t('restore_failed_count', { n: r.failed })}` : String(r.files)),
    },
    { id: 'size', label: t('snapshot_size'), align: 'right', render: (r) => formatBytes(r.size, locale) },
    {
      id: 'started',
      label: t('snapshot_started_at'),
      render: (r) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(r.startedAt, locale)}
        </Box>
      ),
    },
    {
      id: 'actions',
      label: '',
      width: 60,
      render: (r) =>
        r.status === 'running' ? (
          <LazyTooltip title={t('snapshot_stop')}>
            <IconButton aria-label={t('snapshot_stop')} onClick={() => setStopping(r._id)}>
              <MdiIcon path={mdiStopCircleOutline} fontSize="small" />
            </IconButton>
          </LazyTooltip>
        ) : r.status === 'failure' || r.status === 'canceled' ? (
          <LazyTooltip title={t('restore_retry')}>
            <IconButton
              aria-label={t('restore_retry')}
              disabled={retry.isPending}
              onClick={() => retry.mutate(r._id, { onSuccess: () => notify(t('restore_started')), onError: failed })}
            >
              <MdiIcon path={mdiReplay} fontSize="small" />
            </IconButton>
          </LazyTooltip>
        ) : null,
    },
  ];

  return (
    <Paper variant="outlined" sx={{ borderRadius: 2, p: 1.5 }} component="section" aria-label={t('restore_history')}>
      <Box sx={{ display: 'flex', alignItems: 'center' }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700, flexGrow: 1, pl: 0.5 }}>
          {t('restore_history')}
        </Typography>
        <LazyTooltip title={t('refresh')}>
          <IconButton aria-label={t('refresh')} onClick={() => void restores.refetch()}>
            <MdiIcon path={mdiRefresh} />
          </IconButton>
        </LazyTooltip>
      </Box>
      <PagedTable
        label={t('restore_history')}
        columns={columns}
        rows={restores.data?.items ?? []}
        rowKey={(r) => r._id}
        total={restores.data?.total ?? 0}
        {...paging.props}
        loading={restores.isPending}
        error={restores.isError}
        empty={t('no_data')}
      />
      <ConfirmDialog
        open={stopping !== null}
        title={t('snapshot_stop')}
        message={t('restore_stop_confirm')}
        confirmLabel={t('snapshot_stop')}
        danger
        onConfirm={() => {
          if (stopping) stop.mutate(stopping, { onError: failed });
          setStopping(null);
        }}
        onClose={() => setStopping(null)}
      />
    </Paper>
  );
}

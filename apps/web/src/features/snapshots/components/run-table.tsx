import type { SnapshotRun } from '@bogwan/contracts';
import { mdiRefresh, mdiRestore, mdiStopCircleOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { type PagedColumn, PagedTable } from '../../../components/paged-table';
import { usePaging } from '../../../components/use-paging';
import { formatDateTime } from '../../../i18n/format-time';
import { k, messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { withLocale } from '../../../state/locale';
import { useCancelRun, useRuns } from '../api/runs';
import { formatBytes } from '../../../lib/format-bytes';
import { JobStatus } from './job-status';
import { LazyTooltip } from '../../../components/lazy-tooltip';

/** Every run, newest first: status, sizes, and stop or restore. */
export function RunTable() {
  const { t } = useTranslation();
  const locale = useLocale();
  const navigate = useNavigate();
  const paging = usePaging(15);
  const runs = useRuns({ skip: paging.page * paging.rowsPerPage, limit: paging.rowsPerPage });
  const cancel = useCancelRun();

  const columns: PagedColumn<SnapshotRun>[] = [
    { id: 'plan', label: t('snapshot_plan_name'), render: (run) => run.planName },
    { id: 'status', label: t('column_status'), width: 150, render: (run) => <JobStatus status={run.status} progress={run.progress} error={run.error} /> },
    {
      id: 'type',
      label: t('snapshot_backup_type'),
      render: (run) =>
        `${t(run.backupType === 'full' ? k('snapshot_type_full') : k('snapshot_type_incremental'))} · ${t(run.trigger === 'schedule' ? k('snapshot_trigger_schedule') : k('snapshot_trigger_manual'))}`,
    },
    {
      id: 'started',
      label: t('snapshot_started_at'),
      render: (run) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(run.startedAt, locale)}
        </Box>
      ),
    },
    { id: 'files', label: t('snapshot_files'), align: 'right', render: (run) => run.files.toLocaleString() },
    { id: 'size', label: t('snapshot_size'), align: 'right', render: (run) => formatBytes(run.size, locale) },
    { id: 'added', label: t('snapshot_added'), align: 'right', render: (run) => formatBytes(run.bytesAdded, locale) },
    {
      id: 'actions',
      label: '',
      width: 60,
      render: (run) =>
        run.status === 'running' ? (
          <LazyTooltip title={t('snapshot_stop')}>
            <IconButton
              aria-label={t('snapshot_stop')}
              onClick={() =>
                cancel.mutate(run._id, { onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error') })
              }
            >
              <MdiIcon path={mdiStopCircleOutline} fontSize="small" />
            </IconButton>
          </LazyTooltip>
        ) : run.status === 'completed' ? (
          <LazyTooltip title={t('restore_from_here')}>
            <IconButton aria-label={t('restore_from_here')} onClick={() => navigate(`${withLocale(locale, '/restore')}?run=${encodeURIComponent(run._id)}`)}>
              <MdiIcon path={mdiRestore} fontSize="small" />
            </IconButton>
          </LazyTooltip>
        ) : null,
    },
  ];

  return (
    <Paper variant="outlined" sx={{ borderRadius: 2, p: 1.5 }}>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
        <LazyTooltip title={t('refresh')}>
          <IconButton aria-label={t('refresh')} onClick={() => void runs.refetch()}>
            <MdiIcon path={mdiRefresh} />
          </IconButton>
        </LazyTooltip>
      </Box>
      <PagedTable
        label={t('snapshot_runs')}
        columns={columns}
        rows={runs.data?.items ?? []}
        rowKey={(run) => run._id}
        total={runs.data?.total ?? 0}
        {...paging.props}
        loading={runs.isPending}
        error={runs.isError}
        empty={t('no_data')}
      />
    </Paper>
  );
}

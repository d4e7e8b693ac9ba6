import { SETTINGS_PAGE_SIZE, type VolumeRow } from '@bogwan/contracts';
import { mdiCloudSyncOutline, mdiPencilOutline } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { PagedTable, type PagedColumn } from '../../../components/paged-table';
import { usePaging } from '../../../components/use-paging';
import { k } from '../../../i18n/keys';
import { useVolumes } from '../api/volumes';
import { formatRate } from '../lib/byte-units';
import { useFormatBytes } from '../../../lib/format-bytes';
import { usageBreakdownText } from '../../../lib/usage-breakdown';
import { SyncDialog } from './sync-dialog';
import { VersionRetentionForm } from './version-retention-form';
import { VolumeLimitDialog } from './volume-limit-dialog';

const BACKEND_LABELS = { server: k('storage_backend_server'), cloud: k('storage_backend_cloud') } as const;

/**
 * Settings → Storage → Volume: how long file versions are kept, then every root folder with its
 * limit and usage (live files, versions, trash); edit a limit, or move or copy to the other backend.
 */
export function VolumeSection() {
  const { t } = useTranslation();
  const formatBytes = useFormatBytes();
  const volumes = useVolumes();
  const paging = usePaging(SETTINGS_PAGE_SIZE);
  const [editing, setEditing] = useState<VolumeRow | null>(null);
  const [syncing, setSyncing] = useState<VolumeRow | null>(null);
  const rows = volumes.data?.items ?? [];
  const cloudConfigured = volumes.data?.cloudConfigured ?? false;

  const columns: PagedColumn<VolumeRow>[] = [
    {
      id: 'name',
      label: t('volume_name'),
      render: (row) => (
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="body2" sx={{ fontWeight: 600 }}>
            {row.name}
          </Typography>
          <Chip size="small" variant="outlined" label={t(BACKEND_LABELS[row.backend])} />
          {row.syncing && <Chip size="small" color="info" label={t('volume_syncing')} />}
        </Stack>
      ),
    },
    { id: 'limit', label: t('volume_limit'), align: 'right', render: (row) => (row.volume === null ? t('volume_unlimited') : formatBytes(row.volume)) },
    {
      id: 'usage',
      label: t('volume_usage'),
      align: 'right',
      render: (row) => (
        <Box>
          <Typography variant="body2">{formatBytes(row.usage)}</Typography>
          <Typography variant="caption" sx={{ color: 'text.secondary', whiteSpace: 'nowrap' }} data-testid="usage-breakdown">
            {usageBreakdownText(t, formatBytes, row.breakdown)}
          </Typography>
        </Box>
      ),
    },
    { id: 'available', label: t('volume_available'), align: 'right', render: (row) => (row.available === null ? '-' : formatBytes(row.available)) },
    {
      id: 'rate',
      label: t('volume_usage_rate'),
      width: 140,
      render: (row) => (
        <Box>
          <Typography variant="body2" sx={{ color: row.usageRate !== null && row.usageRate >= 1 ? 'error.main' : undefined }}>
            {formatRate(row.usageRate)}
          </Typography>
          {row.usageRate !== null && (
            <LinearProgress
              variant="determinate"
              value={Math.min(100, row.usageRate * 100)}
              color={row.usageRate >= 0.9 ? 'error' : 'primary'}
              aria-label={t('volume_usage_rate')}
            />
          )}
        </Box>
      ),
    },
    { id: 'total', label: t('volume_total_usage_rate'), align: 'right', render: (row) => formatRate(row.totalUsageRate) },
    {
      id: 'actions',
      label: '',
      align: 'right',
      render: (row) => (
        <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
          <Tooltip title={t('volume_edit')}>
            <IconButton size="small" aria-label={t('volume_edit_title', { name: row.name })} onClick={() => setEditing(row)}>
              <MdiIcon path={mdiPencilOutline} />
            </IconButton>
          </Tooltip>
          <Tooltip title={cloudConfigured ? t('sync_action') : t('sync_needs_bucket')}>
            <span>
              <IconButton
                size="small"
                aria-label={t('sync_action_of', { name: row.name })}
                disabled={!cloudConfigured || row.syncing}
                onClick={() => setSyncing(row)}
              >
                <MdiIcon path={mdiCloudSyncOutline} />
              </IconButton>
            </span>
          </Tooltip>
        </Stack>
      ),
    },
  ];

  return (
    <Stack spacing={2}>
      <Paper variant="outlined" sx={{ borderRadius: 2, p: 2 }}>
        <VersionRetentionForm />
      </Paper>
      {volumes.isError && <Alert severity="error">{t('request_error_message')}</Alert>}
      <PagedTable
        label={t('settings_volume')}
        columns={columns}
        rows={paging.slice(rows)}
        rowKey={(row) => row._id}
        total={rows.length}
        {...paging.props}
        loading={volumes.isPending}
        empty={t('no_data')}
      />
      {editing && <VolumeLimitDialog row={editing} onClose={() => setEditing(null)} />}
      {syncing && <SyncDialog row={syncing} onClose={() => setSyncing(null)} />}
    </Stack>
  );
}

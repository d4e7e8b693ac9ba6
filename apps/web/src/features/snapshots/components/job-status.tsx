import type { SnapshotJobStatus } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import { useTranslation } from 'react-i18next';
import { k, messageText } from '../../../i18n/keys';
import { Tag } from '../../../components/tag';
import { LazyTooltip } from '../../../components/lazy-tooltip';

const LABELS = {
  running: k('snapshot_status_running'),
  completed: k('snapshot_status_completed'),
  failure: k('snapshot_status_failure'),
  canceled: k('snapshot_status_canceled'),
} satisfies Record<SnapshotJobStatus, string>;

const COLORS = { running: 'info', completed: 'success', failure: 'error', canceled: 'default' } as const;

/** A run's or restore's state: a chip, a progress bar while running, the reason when it failed. */
export function JobStatus({ status, progress, error }: { status: SnapshotJobStatus; progress: number | null; error: string | null }) {
  const { t } = useTranslation();
  const chip = <Tag color={COLORS[status]} variant={status === 'running' ? 'outlined' : 'filled'} label={t(LABELS[status])} data-status={status} />;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 0.5, minWidth: 96 }}>
      {error ? <LazyTooltip title={messageText(t, error)}>{chip}</LazyTooltip> : chip}
      {status === 'running' && (
        <LinearProgress
          aria-label={t('snapshot_status_running')}
          variant={progress === null ? 'indeterminate' : 'determinate'}
          value={progress ?? undefined}
          sx={{ height: 4, borderRadius: 2 }}
        />
      )}
      {error && (
        <Box component="span" sx={{ fontSize: 12, color: 'error.main', maxWidth: 220 }}>
          {messageText(t, error)}
        </Box>
      )}
    </Box>
  );
}

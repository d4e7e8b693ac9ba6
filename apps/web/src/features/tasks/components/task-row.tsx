import type { TaskEntry, TaskType } from '@bogwan/contracts';
import {
  mdiAlertCircleOutline,
  mdiBackupRestore,
  mdiCameraTimer,
  mdiCancel,
  mdiCheckCircleOutline,
  mdiClockOutline,
  mdiCloseCircleOutline,
  mdiDeleteOutline,
  mdiFileUploadOutline,
  mdiFolderArrowRightOutline,
  mdiSync,
} from '@mdi/js';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { forwardRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { formatDateTime, formatRelative } from '../../../i18n/format-time';
import { k } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useAuth } from '../../../state/auth';
import { effectiveStatus, taskActions, type TaskState } from '../lib/task-rules';
import { formatBytes } from '../../../lib/format-bytes';

/** Width of the task name from the spec. */
const NAME_WIDTH = 260;

const TYPE_ICONS: Record<TaskType, string> = {
  upload: mdiFileUploadOutline,
  sync: mdiSync,
  snapshot: mdiCameraTimer,
  restore: mdiBackupRestore,
};

const STATUS_LABELS = {
  pending: k('task_status_pending'),
  running: k('task_status_running'),
  completed: k('task_status_completed'),
  canceled: k('task_status_canceled'),
  failure: k('task_status_failure'),
} satisfies Record<TaskState, string>;

function Action({ label, icon, onClick, disabled }: { label: string; icon: string; onClick: () => void; disabled?: boolean }) {
  return (
    <Tooltip title={label}>
      <span>
        <IconButton size="small" aria-label={label} onClick={onClick} disabled={disabled}>
          <MdiIcon path={icon} fontSize="small" />
        </IconButton>
      </span>
    </Tooltip>
  );
}

function StatusMark({ task }: { task: TaskEntry }) {
  const { t } = useTranslation();
  const status = effectiveStatus(task);
  if (status === 'running' && task.progress !== null) {
    return (
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.75 }}>
        <Typography variant="caption" sx={{ fontVariantNumeric: 'tabular-nums', color: 'primary.main', fontWeight: 700 }}>
          {task.progress}%
        </Typography>
        <CircularProgress size={16} thickness={5} aria-label={t('task_status_running')} />
      </Box>
    );
  }
  if (status === 'running') return null; // the bar under the row says it
  const icon = {
    pending: { path: mdiClockOutline, color: 'action' },
    completed: { path: mdiCheckCircleOutline, color: 'success' },
    canceled: { path: mdiCloseCircleOutline, color: 'disabled' },
    failure: { path: mdiAlertCircleOutline, color: 'error' },
  }[status] as { path: string; color: 'action' | 'success' | 'disabled' | 'error' };
  return <MdiIcon path={icon.path} fontSize="small" color={icon.color} titleAccess={t(STATUS_LABELS[status])} />;
}

export interface TaskRowProps {
  task: TaskEntry;
  busy: boolean;
  onCancel: (task: TaskEntry) => void;
  onDelete: (task: TaskEntry) => void;
  onMove: (task: TaskEntry) => void;
}

/** One task: type icon, name, status line, progress, and the actions its state allows. */
export const TaskRow = forwardRef<HTMLLIElement, TaskRowProps>(function TaskRow({ task, busy, onCancel, onDelete, onMove }, ref) {
  const { t } = useTranslation();
  const locale = useLocale();
  const status = effectiveStatus(task);
  const admin = (useAuth()?.user.roleLevel ?? 1) > 1;
  const actions = taskActions(task, { admin });
  // A task without a size (a sync that has not counted yet) shows none rather than '0 B'.
  const size = task.size > 0 ? formatBytes(task.size, locale) : '';
  const detail = [t(STATUS_LABELS[status]), size, formatRelative(task.updatedAt, locale)].filter(Boolean).join(' · ');

  return (
    <Box
      component="li"
      ref={ref}
      data-testid="task-row"
      data-status={status}
      data-type={task.type}
      sx={{ listStyle: 'none', px: 2, py: 1, borderTop: 1, borderColor: 'divider' }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <MdiIcon path={TYPE_ICONS[task.type]} fontSize="small" color="action" />
        <Box sx={{ minWidth: 0, flexGrow: 1 }}>
          <Typography variant="body2" noWrap title={task.clientPath ? `${task.clientPath} · ${task.name}` : task.name} sx={{ maxWidth: NAME_WIDTH }}>
            {task.name}
          </Typography>
          <Typography
            variant="caption"
            noWrap
            component="div"
            title={formatDateTime(task.updatedAt, locale)}
            sx={{ color: status === 'failure' ? 'error.main' : 'text.secondary' }}
          >
            {detail}
          </Typography>
        </Box>
        <StatusMark task={task} />
        {actions.move && <Action label={t('task_move')} icon={mdiFolderArrowRightOutline} onClick={() => onMove(task)} />}
        {actions.cancel && <Action label={t('cancel')} icon={mdiCancel} disabled={busy} onClick={() => onCancel(task)} />}
        {actions.delete && <Action label={t('delete')} icon={mdiDeleteOutline} disabled={busy} onClick={() => onDelete(task)} />}
      </Box>
      {status === 'running' && task.progress === null && <LinearProgress aria-label={task.name} sx={{ mt: 0.75, borderRadius: 1 }} />}
    </Box>
  );
});

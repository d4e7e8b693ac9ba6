import { mdiAlertCircleOutline, mdiCheckCircleOutline, mdiClose, mdiFileUploadOutline, mdiPause, mdiPlay, mdiRefresh } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { k, messageText } from '../../../i18n/keys';
import type { UploadStatus, UploadTask } from '../engine/types';
import { useUploadTasks } from '../hooks/use-upload-tasks';
import { uploadQueue } from '../upload-service';
import { useFormatBytes } from '../../../lib/format-bytes';

const STATUS_LABEL = {
  queued: k('upload_status_queued'),
  uploading: k('upload_status_uploading'),
  paused: k('upload_status_paused'),
  done: k('upload_status_done'),
  failed: k('upload_status_failed'),
  canceled: k('upload_status_canceled'),
} as const satisfies Record<UploadStatus, string>;

function Action({ label, icon, onClick }: { label: string; icon: string; onClick: () => void }) {
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={label} onClick={onClick}>
        <MdiIcon path={icon} fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

function TaskRow({ task }: { task: UploadTask }) {
  const { t } = useTranslation();
  const bytes = useFormatBytes();
  const queue = uploadQueue();
  const picker = useRef<HTMLInputElement>(null);
  const active = task.status === 'queued' || task.status === 'uploading';
  const finished = task.status === 'done' || task.status === 'canceled' || task.status === 'failed';

  let detail = `${bytes(task.uploadedBytes)} / ${bytes(task.size)}`;
  if (task.status === 'uploading' && task.speed > 0) detail += ` · ${bytes(task.speed)}/s`;
  if (task.status === 'failed' && task.error) detail = messageText(t, task.error);
  if (task.needsFile) detail = t('upload_pick_again');

  return (
    <Box component="li" data-testid="upload-task" data-status={task.status} sx={{ listStyle: 'none', px: 2, py: 1, borderTop: 1, borderColor: 'divider' }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
        <MdiIcon
          path={task.status === 'done' ? mdiCheckCircleOutline : task.status === 'failed' ? mdiAlertCircleOutline : mdiFileUploadOutline}
          fontSize="small"
          color={task.status === 'done' ? 'success' : task.status === 'failed' ? 'error' : 'action'}
        />
        <Box sx={{ minWidth: 0, flexGrow: 1 }}>
          <Typography variant="body2" noWrap title={`${task.path}/${task.name}`}>
            {task.name}
          </Typography>
          <Typography variant="caption" noWrap component="div" sx={{ color: task.status === 'failed' ? 'error.main' : 'text.secondary' }}>
            {task.status === 'canceled'
              ? // What had reached the server when the upload was stopped.
                t('upload_canceled_detail', { sent: bytes(task.uploadedBytes), size: bytes(task.size) })
              : `${t(STATUS_LABEL[task.status])}${task.status === 'uploading' || task.status === 'paused' ? ` ${task.progress}%` : ''} · ${detail}`}
          </Typography>
        </Box>
        {task.needsFile && (
          <>
            <Action label={t('upload_pick_file')} icon={mdiFileUploadOutline} onClick={() => picker.current?.click()} />
            <input
              ref={picker}
              type="file"
              hidden
              onChange={(event) => {
                const file = event.target.files?.[0];
                if (file) queue.provideFile(task.id, file);
                event.target.value = '';
              }}
            />
          </>
        )}
        {active && <Action label={t('upload_pause')} icon={mdiPause} onClick={() => queue.pause(task.id)} />}
        {task.status === 'paused' && !task.needsFile && <Action label={t('upload_resume')} icon={mdiPlay} onClick={() => queue.resume(task.id)} />}
        {(task.status === 'failed' || task.status === 'canceled') && <Action label={t('retry')} icon={mdiRefresh} onClick={() => queue.retry(task.id)} />}
        {finished ? (
          <Action label={t('upload_remove')} icon={mdiClose} onClick={() => queue.remove(task.id)} />
        ) : (
          <Action label={t('cancel')} icon={mdiClose} onClick={() => queue.cancel(task.id)} />
        )}
      </Box>
      {(active || task.status === 'paused') && (
        <LinearProgress
          variant={task.status === 'queued' && task.progress === 0 ? 'indeterminate' : 'determinate'}
          value={task.progress}
          aria-label={task.name}
          sx={{ mt: 0.75, borderRadius: 1 }}
        />
      )}
    </Box>
  );
}

/**
 * This browser's upload queue as a section of the task panel's upload tab: a heading
 * with 'clear finished', then one row per file with its pause, resume, retry and cancel
 * actions. Nothing when the queue is empty.
 */
export function UploadQueueSection() {
  const { t } = useTranslation();
  const tasks = useUploadTasks();
  const running = tasks.filter((task) => task.status === 'queued' || task.status === 'uploading').length;
  const finished = tasks.some((task) => task.status === 'done' || task.status === 'canceled' || task.status === 'failed');
  if (tasks.length === 0) return null;
  return (
    <Box component="section" role="region" aria-label={t('upload_panel_title')} data-testid="upload-panel">
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, pl: 2, pr: 1, minHeight: 36, bgcolor: 'action.hover' }}>
        <Typography variant="caption" sx={{ flexGrow: 1, fontWeight: 700, color: 'text.secondary' }}>
          {running > 0 ? t('upload_panel_running', { n: running }) : t('upload_local_heading')}
        </Typography>
        {finished && (
          <Button size="small" onClick={() => uploadQueue().clearFinished()} sx={{ minWidth: 0 }}>
            {t('upload_clear_finished')}
          </Button>
        )}
      </Box>
      <Box component="ul" sx={{ m: 0, p: 0 }}>
        {tasks.map((task) => (
          <TaskRow key={task.id} task={task} />
        ))}
      </Box>
    </Box>
  );
}

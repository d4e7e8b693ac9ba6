import { TASK_PANEL_WIDTH, TASK_TYPES, type TaskEntry, type TaskType } from '@bogwan/contracts';
import { mdiChevronDown, mdiChevronUp, mdiClose } from '@mdi/js';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { k, messageText } from '../../../i18n/keys';
import { useCancelTask } from '../api/cancel-task';
import { useDeleteTask } from '../api/delete-task';
import { isActive } from '../lib/task-rules';
import { setTaskPanel, useTaskPanel } from '../state/task-panel';
import { TaskRow } from './task-row';

/** List height from the spec. */
const LIST_MAX_HEIGHT = 360;

const TAB_LABELS = {
  upload: k('task_tab_upload'),
  sync: k('task_tab_sync'),
  snapshot: k('task_tab_snapshot'),
  restore: k('task_tab_restore'),
} satisfies Record<TaskType, string>;

export interface TaskPanelProps {
  userId: string;
  /** The server's tasks of each tab, already filtered to the user and sorted. */
  tabs: Record<TaskType, TaskEntry[]>;
  /** This browser's upload queue, shown on top of the upload tab; null when it is empty. */
  localUploads: ReactNode;
  /** How many files the local queue holds (for the tab's count). */
  localUploadCount: number;
  /** Tasks running now, across tabs (for the heading). */
  runningCount: number;
  onMove: (task: TaskEntry) => void;
}

/**
 * The task status panel (bottom right, 400 wide): tabs upload, sync, snapshot, restore,
 * each listing its tasks with progress and the actions their state allows.
 */
export function TaskPanel({ userId, tabs, localUploads, localUploadCount, runningCount, onMove }: TaskPanelProps) {
  const { t } = useTranslation();
  const { open, expanded, tab } = useTaskPanel();
  const cancel = useCancelTask();
  const remove = useDeleteTask(userId);
  const tasks = tabs[tab];
  const firstActive = tasks.find(isActive)?.cacheKey;
  const activeRow = useRef<HTMLLIElement>(null);

  // The running or waiting task of the selected tab scrolls into view.
  useEffect(() => {
    if (open && expanded) activeRow.current?.scrollIntoView({ block: 'nearest' });
  }, [open, expanded, tab, firstActive]);

  if (!open) return null;
  const count = (type: TaskType) => tabs[type].length + (type === 'upload' ? localUploadCount : 0);
  const showLocal = tab === 'upload' && localUploadCount > 0;
  const empty = tasks.length === 0 && !showLocal;

  return (
    <Paper
      elevation={8}
      role="region"
      aria-labelledby="task-panel-title"
      data-testid="task-panel"
      sx={{
        position: 'fixed',
        right: 16,
        bottom: 16,
        width: TASK_PANEL_WIDTH,
        maxWidth: 'calc(100vw - 32px)',
        // Above the app bar and drawers, below dialogs: an open dialog is never covered by the panel.
        zIndex: (theme) => theme.zIndex.modal - 1,
        overflow: 'hidden',
        borderRadius: 2,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 0.5, pl: 2, pr: 1, py: 0.75, bgcolor: 'action.hover' }}>
        <Typography id="task-panel-title" variant="subtitle2" component="h2" sx={{ flexGrow: 1 }}>
          {runningCount > 0 ? t('task_panel_running', { count: runningCount }) : t('task_panel_title')}
        </Typography>
        <Tooltip title={expanded ? t('task_panel_collapse') : t('task_panel_expand')}>
          <IconButton
            size="small"
            aria-label={expanded ? t('task_panel_collapse') : t('task_panel_expand')}
            aria-expanded={expanded}
            onClick={() => setTaskPanel({ expanded: !expanded })}
          >
            <MdiIcon path={expanded ? mdiChevronDown : mdiChevronUp} fontSize="small" />
          </IconButton>
        </Tooltip>
        <Tooltip title={t('close')}>
          <IconButton size="small" aria-label={t('close')} onClick={() => setTaskPanel({ open: false })}>
            <MdiIcon path={mdiClose} fontSize="small" />
          </IconButton>
        </Tooltip>
      </Box>
      {expanded && (
        <>
          <Tabs
            value={tab}
            onChange={(_event, value: TaskType) => setTaskPanel({ tab: value, expanded: true })}
            variant="fullWidth"
            aria-label={t('task_panel_title')}
            sx={{ minHeight: 40, borderBottom: 1, borderColor: 'divider', '& .MuiTab-root': { minHeight: 40, py: 0, px: 1, minWidth: 0 } }}
          >
            {TASK_TYPES.map((type) => (
              <Tab key={type} value={type} label={count(type) > 0 ? `${t(TAB_LABELS[type])} ${count(type)}` : t(TAB_LABELS[type])} />
            ))}
          </Tabs>
          <Box sx={{ maxHeight: LIST_MAX_HEIGHT, overflowY: 'auto' }} role="tabpanel" aria-label={t(TAB_LABELS[tab])}>
            {showLocal && localUploads}
            {showLocal && tasks.length > 0 && (
              <Box sx={{ display: 'flex', alignItems: 'center', pl: 2, minHeight: 36, bgcolor: 'action.hover', borderTop: 1, borderColor: 'divider' }}>
                <Typography variant="caption" sx={{ fontWeight: 700, color: 'text.secondary' }}>
                  {t('task_recorded')}
                </Typography>
              </Box>
            )}
            {empty ? (
              <Typography variant="body2" sx={{ p: 3, textAlign: 'center', color: 'text.secondary' }}>
                {t('task_empty')}
              </Typography>
            ) : (
              <Box component="ul" sx={{ m: 0, p: 0, '& > li:first-of-type': { borderTop: 0 } }}>
                {tasks.map((task) => (
                  <TaskRow
                    key={task.cacheKey}
                    ref={task.cacheKey === firstActive ? activeRow : undefined}
                    task={task}
                    busy={(cancel.isPending && cancel.variables?.cacheKey === task.cacheKey) || (remove.isPending && remove.variables === task.cacheKey)}
                    onMove={onMove}
                    onCancel={(entry) =>
                      cancel.mutate(entry, {
                        onError: (error) => {
                          // Logged, and the task stays as it is.
                          console.error('task cancel failed', error);
                          notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error');
                        },
                      })
                    }
                    onDelete={(entry) =>
                      remove.mutate(entry.cacheKey, {
                        onError: (error) => {
                          console.error('task delete failed', error);
                          notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error');
                        },
                      })
                    }
                  />
                ))}
              </Box>
            )}
          </Box>
        </>
      )}
    </Paper>
  );
}

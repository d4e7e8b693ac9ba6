import { TASK_TYPES, type TaskEntry, type TaskType } from '@bogwan/contracts';
import { lazy, useEffect, useMemo, useRef } from 'react';
import { useNavigate } from 'react-router';
import { storageHref } from '../../../features/files/lib/storage-path';
import { useTaskCache } from '../../../features/tasks/api/get-task-cache';
import { TaskIndicator } from '../../../features/tasks/components/task-indicator';
import type { TaskPanelProps } from '../../../features/tasks/components/task-panel';
import { isActive, ownTasks, tabForArrivals, tasksOfTab, withoutMirroredUploads } from '../../../features/tasks/lib/task-rules';
import { setTaskPanel, taskPanelStore, useTaskPanel } from '../../../features/tasks/state/task-panel';
import { useUploadAnnouncements } from '../../../features/upload/hooks/use-upload-announcements';
import { useUploadTasks } from '../../../features/upload/hooks/use-upload-tasks';
import { restoreUploads } from '../../../features/upload/upload-service';
import { useLocalePath } from '../../../i18n/use-locale';
import { useAuth } from '../../../state/auth';
import { Deferred } from '../../../components/deferred';

// The panel and the upload queue's list arrive together when the panel first opens (it is
// closed on a fresh page): one round of requests, made before an upload's chunks take the
// connections.
const TaskPanel = lazy(async () => {
  const [panel, uploads] = await Promise.all([
    import('../../../features/tasks/components/task-panel'),
    import('../../../features/upload/components/upload-panel'),
  ]);
  const { TaskPanel: Panel } = panel;
  const { UploadQueueSection } = uploads;
  return { default: (props: Omit<TaskPanelProps, 'localUploads'>) => <Panel {...props} localUploads={<UploadQueueSection />} /> };
});

/**
 * The tasks the panel shows: the server's (own, per tab, newest first) and this
 * browser's upload queue, whose running files are not listed twice.
 */
function useTaskOverview() {
  const userId = useAuth()?.user._id ?? '';
  const cache = useTaskCache(userId);
  const uploads = useUploadTasks();
  return useMemo(() => {
    const data = cache.data ?? {};
    const localActive = uploads.filter((task) => task.status === 'queued' || task.status === 'uploading' || task.status === 'paused');
    const tabs = Object.fromEntries(
      TASK_TYPES.map((type) => {
        const tasks = tasksOfTab(data, userId, type);
        return [type, type === 'upload' ? withoutMirroredUploads(tasks, localActive) : tasks];
      }),
    ) as Record<TaskType, TaskEntry[]>;
    const serverRunning = TASK_TYPES.reduce((sum, type) => sum + tabs[type].filter(isActive).length, 0);
    const localRunning = uploads.filter((task) => task.status === 'queued' || task.status === 'uploading').length;
    return {
      userId,
      cacheData: cache.data,
      tabs,
      ownKeys: ownTasks(data, userId).map((task) => task.cacheKey),
      localCount: uploads.length,
      runningCount: serverRunning + localRunning,
    };
  }, [cache.data, uploads, userId]);
}

/** The top bar's task status indicator. */
export function TaskStatusIndicator() {
  const { runningCount } = useTaskOverview();
  return <TaskIndicator runningCount={runningCount} />;
}

/**
 * The task panel, with its rules for opening: it expands when new tasks arrive (on their
 * tab) and folds away when nothing is left. Tasks already there when the page loads do
 * not open it; uploads brought back after a reload do. Quiet tasks (search indexing after
 * an upload) neither open it nor move it off the tab the user is on.
 */
export function TaskPanelHost() {
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const overview = useTaskOverview();
  const { tabs, ownKeys, localCount, cacheData } = overview;
  const panelOpen = useTaskPanel().open;
  useUploadAnnouncements();

  useEffect(() => {
    restoreUploads();
  }, []);

  const seen = useRef<Set<string> | null>(null);
  useEffect(() => {
    if (!cacheData) return;
    if (seen.current === null) {
      seen.current = new Set(ownKeys);
      return;
    }
    const known = seen.current;
    const arrived = ownKeys.filter((key) => !known.has(key));
    arrived.forEach((key) => known.add(key));
    const tab = tabForArrivals(arrived.flatMap((key) => cacheData[key] ?? []));
    if (tab) setTaskPanel({ open: true, expanded: true, tab });
  }, [cacheData, ownKeys]);

  const previousLocal = useRef(0);
  useEffect(() => {
    if (localCount > previousLocal.current) setTaskPanel({ open: true, expanded: true, tab: 'upload' });
    previousLocal.current = localCount;
  }, [localCount]);

  const total = ownKeys.length + localCount;
  const previousTotal = useRef(total);
  useEffect(() => {
    if (total === 0 && previousTotal.current > 0 && taskPanelStore.get().open) setTaskPanel({ open: false, expanded: false });
    previousTotal.current = total;
  }, [total]);

  return (
    <Deferred open={panelOpen}>
      <TaskPanel
        userId={overview.userId}
        tabs={tabs}
        localUploadCount={localCount}
        runningCount={overview.runningCount}
        onMove={(task) => void navigate(localePath(storageHref(task.clientPath)))}
      />
    </Deferred>
  );
}

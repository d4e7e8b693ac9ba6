import type { Dashboard, DashboardTask } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '../../../lib/format-bytes';
import { formatDateTime, formatRelative } from '../../../i18n/format-time';
import { k } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { DashboardCard } from './dashboard-card';
import { Tag } from '../../../components/tag';

const TASK_TYPE_LABELS = {
  upload: k('task_tab_upload'),
  sync: k('task_tab_sync'),
  snapshot: k('task_tab_snapshot'),
  restore: k('task_tab_restore'),
} as const;
const TASK_STATUS_LABELS = {
  pending: k('task_status_pending'),
  running: k('task_status_running'),
  completed: k('task_status_completed'),
  canceled: k('task_status_canceled'),
  failure: k('task_status_failure'),
} as const;
/** Days before the licence end from which the card warns. */
const LICENCE_WARN_DAYS = 14;

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0 }}>
        {children}
      </Typography>
    </>
  );
}

function Fields({ children }: { children: ReactNode }) {
  return (
    <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', columnGap: 2, rowGap: 0.75, m: 0 }}>
      {children}
    </Box>
  );
}

/** Licence type, seats and how long it still runs. */
export function LicenceCard({ licence }: { licence: Dashboard['licence'] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const ending = licence.daysLeft <= LICENCE_WARN_DAYS;
  return (
    <DashboardCard id="licence" title={t('dashboard_licence')}>
      <Fields>
        <Row label={t('license_type')}>{licence.trial ? <Tag color="warning" label={t('license_trial')} /> : licence.type}</Row>
        <Row label={t('license_user')}>{t('license_seats', { used: licence.seatsUsed, total: licence.seats })}</Row>
        <Row label={t('dashboard_licence_until')}>{formatDateTime(licence.expiresAt, locale)}</Row>
      </Fields>
      <Alert severity={ending ? 'warning' : 'success'} variant="outlined" sx={{ py: 0 }}>
        {t('dashboard_licence_days_left', { count: licence.daysLeft })}
      </Alert>
    </DashboardCard>
  );
}

/** The latest snapshot run, or a note that there is none yet. */
export function SnapshotCard({ snapshot }: { snapshot: Dashboard['snapshot'] }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <DashboardCard id="snapshot" title={t('dashboard_last_snapshot')}>
      {snapshot ? (
        <Fields>
          <Row label={t('dashboard_snapshot_name')}>{snapshot.name}</Row>
          <Row label={t('dashboard_snapshot_status')}>
            <Tag
              variant="outlined"
              color={snapshot.status === 'completed' ? 'success' : snapshot.status === 'failure' ? 'error' : 'default'}
              label={snapshot.status in TASK_STATUS_LABELS ? t(TASK_STATUS_LABELS[snapshot.status as keyof typeof TASK_STATUS_LABELS]) : snapshot.status}
            />
          </Row>
          <Row label={t('dashboard_snapshot_started')}>{formatDateTime(snapshot.startedAt, locale)}</Row>
          {snapshot.finishedAt && <Row label={t('dashboard_snapshot_finished')}>{formatDateTime(snapshot.finishedAt, locale)}</Row>}
          {snapshot.size !== null && <Row label={t('dashboard_snapshot_size')}>{formatBytes(snapshot.size, locale)}</Row>}
        </Fields>
      ) : (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('dashboard_no_snapshot')}
        </Typography>
      )}
    </DashboardCard>
  );
}

function TaskLine({ task }: { task: DashboardTask }) {
  const { t } = useTranslation();
  const locale = useLocale();
  return (
    <ListItem disableGutters sx={{ display: 'block', py: 0.75 }}>
      <ListItemText
        primary={
          <Box component="span" sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
            <Tag label={t(TASK_TYPE_LABELS[task.type])} />
            <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={task.name}>
              {task.name}
            </Box>
          </Box>
        }
        secondary={`${task.owner} · ${t(TASK_STATUS_LABELS[task.status])} · ${formatRelative(task.updatedAt, locale)}`}
      />
      <LinearProgress
        variant={task.progress === null ? 'indeterminate' : 'determinate'}
        value={task.progress ?? undefined}
        aria-label={task.name}
        sx={{ mt: 0.5, borderRadius: 1 }}
      />
    </ListItem>
  );
}

/** Pending and running tasks of every user. */
export function TasksCard({ tasks }: { tasks: Dashboard['tasks'] }) {
  const { t } = useTranslation();
  return (
    <DashboardCard id="tasks" title={t('dashboard_running_tasks')} action={<Tag label={tasks.total} />}>
      {tasks.running.length === 0 ? (
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('dashboard_no_tasks')}
        </Typography>
      ) : (
        <List dense disablePadding sx={{ maxHeight: 260, overflowY: 'auto' }}>
          {tasks.running.map((task) => (
            <TaskLine key={task._id} task={task} />
          ))}
        </List>
      )}
    </DashboardCard>
  );
}

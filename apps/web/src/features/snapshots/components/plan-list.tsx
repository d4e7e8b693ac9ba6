import type { SnapshotPlan, SnapshotSchedule } from '@bogwan/contracts';
import { mdiCalendarClock, mdiDeleteOutline, mdiPencilOutline, mdiPlay, mdiPlus } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { formatDateTime } from '../../../i18n/format-time';
import { k, messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useDeletePlan, usePlans, useRunPlan, useSetScheduleStatus } from '../api/plans';
import { formatBytes } from '../../../lib/format-bytes';
import { DAY_LABELS, WEEK_ORDER } from '../lib/plan-form';
import { JobStatus } from './job-status';
import { Tag } from '../../../components/tag';
import { LazyTooltip } from '../../../components/lazy-tooltip';

// The plan form (with its selects, radios and schedule editor) loads its code when first opened.
const PlanDialog = lazy(() => import('./plan-dialog').then((m) => ({ default: m.PlanDialog })));

const failed = (t: TFunction) => (error: unknown) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error');

function daysText(t: TFunction, schedule: SnapshotSchedule): string {
  if (schedule.days.length === 7) return t('snapshot_every_day');
  return WEEK_ORDER.filter((d) => schedule.days.includes(d))
    .map((d) => t(DAY_LABELS[d]))
    .join('·');
}

/** The plans, each a card: what, where, when, its last run, and its actions. */
export function PlanList() {
  const { t } = useTranslation();
  const locale = useLocale();
  const plans = usePlans();
  const run = useRunPlan();
  const remove = useDeletePlan();
  const setStatus = useSetScheduleStatus();
  const [editing, setEditing] = useState<SnapshotPlan | null | undefined>(undefined);
  const [deleting, setDeleting] = useState<SnapshotPlan | null>(null);

  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1.5 }}>
        <Button variant="contained" startIcon={<MdiIcon path={mdiPlus} />} onClick={() => setEditing(null)}>
          {t('snapshot_plan_new')}
        </Button>
      </Box>
      {plans.isPending && <CircularProgress size={24} aria-label={t('loading')} />}
      {plans.isError && <Typography color="error">{t('request_error_message')}</Typography>}
      {plans.data?.length === 0 && (
        <Paper variant="outlined" sx={{ p: 4, textAlign: 'center', color: 'text.secondary', borderRadius: 2 }}>
          {t('snapshot_plan_none')}
        </Paper>
      )}
      <Box sx={{ display: 'grid', gap: 1.5 }}>
        {plans.data?.map((plan) => (
          <Paper key={plan._id} variant="outlined" sx={{ p: 2, borderRadius: 2 }} data-testid="snapshot-plan" data-plan-name={plan.name}>
            <Box sx={{ display: 'flex', alignItems: 'flex-start', gap: 1, flexWrap: 'wrap' }}>
              <Box sx={{ flexGrow: 1, minWidth: 240 }}>
                <Typography variant="h6" component="h2" sx={{ fontSize: 17, fontWeight: 700 }}>
                  {plan.name}
                </Typography>
                <Box sx={{ display: 'flex', gap: 0.75, flexWrap: 'wrap', mt: 0.75 }}>
                  <Tag label={t(plan.backupType === 'full' ? k('snapshot_type_full') : k('snapshot_type_incremental'))} />
                  <Tag variant="outlined" label={plan.target.all ? t('snapshot_target_all') : plan.target.roots.map((r) => r.name).join(', ') || '—'} />
                  <Tag
                    variant="outlined"
                    label={plan.location.kind === 'local' ? plan.location.path : `s3://${plan.location.bucket}/${plan.location.prefix}`}
                  />
                </Box>
              </Box>
              <Box sx={{ display: 'flex', gap: 0.5 }}>
                <Button
                  variant="outlined"
                  size="small"
                  startIcon={<MdiIcon path={mdiPlay} fontSize="small" />}
                  disabled={run.isPending || plan.lastRun?.status === 'running'}
                  onClick={() => run.mutate(plan._id, { onSuccess: () => notify(t('snapshot_run_started')), onError: failed(t) })}
                >
                  {t('snapshot_run_now')}
                </Button>
                <LazyTooltip title={t('snapshot_plan_edit')}>
                  <IconButton aria-label={t('snapshot_plan_edit')} onClick={() => setEditing(plan)}>
                    <MdiIcon path={mdiPencilOutline} fontSize="small" />
                  </IconButton>
                </LazyTooltip>
                <LazyTooltip title={t('delete')}>
                  <IconButton aria-label={t('delete')} onClick={() => setDeleting(plan)}>
                    <MdiIcon path={mdiDeleteOutline} fontSize="small" />
                  </IconButton>
                </LazyTooltip>
              </Box>
            </Box>
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, gap: 2, mt: 1.5 }}>
              <Box>
                <Typography variant="caption" sx={{ color: 'text.secondary', display: 'flex', alignItems: 'center', gap: 0.5 }}>
                  <MdiIcon path={mdiCalendarClock} fontSize="inherit" />
                  {t('snapshot_schedules')}
                </Typography>
                {plan.schedules.length === 0 && <Typography variant="body2">{t('snapshot_schedule_none')}</Typography>}
                {plan.schedules.map((schedule) => (
                  <Box key={schedule._id} sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
                    <Typography variant="body2" sx={{ minWidth: 170, color: schedule.status === 'paused' ? 'text.disabled' : 'text.primary' }}>
                      {daysText(t, schedule)} {schedule.time}
                    </Typography>
                    <Switch
                      size="small"
                      checked={schedule.status === 'active'}
                      slotProps={{ input: { 'aria-label': `${daysText(t, schedule)} ${schedule.time}` } }}
                      onChange={(event) => setStatus.mutate({ id: schedule._id, status: event.target.checked ? 'active' : 'paused' }, { onError: failed(t) })}
                    />
                    <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                      {schedule.status === 'active' ? t('snapshot_schedule_active') : t('snapshot_schedule_paused')}
                    </Typography>
                  </Box>
                ))}
              </Box>
              <Box>
                <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                  {t('snapshot_last_run')}
                </Typography>
                {plan.lastRun ? (
                  <Box sx={{ display: 'flex', gap: 1.5, alignItems: 'flex-start', flexWrap: 'wrap' }}>
                    <JobStatus status={plan.lastRun.status} progress={plan.lastRun.progress} error={plan.lastRun.error} />
                    <Typography variant="body2">
                      {formatDateTime(plan.lastRun.startedAt, locale)}
                      {plan.lastRun.status === 'completed' &&
                        ` · ${t('snapshot_files_count', { count: plan.lastRun.files })} · ${formatBytes(plan.lastRun.size, locale)}`}
                    </Typography>
                  </Box>
                ) : (
                  <Typography variant="body2">{t('snapshot_never_run')}</Typography>
                )}
              </Box>
            </Box>
          </Paper>
        ))}
      </Box>
      {editing !== undefined && (
        <Suspense fallback={null}>
          <PlanDialog plan={editing} onClose={() => setEditing(undefined)} />
        </Suspense>
      )}
      {deleting && (
        <DeletePlanDialog
          plan={deleting}
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting._id, {
              onSuccess: () => {
                notify(t('snapshot_plan_deleted'));
                setDeleting(null);
              },
              onError: failed(t),
            })
          }
        />
      )}
    </Box>
  );
}

function DeletePlanDialog({ plan, busy, onClose, onConfirm }: { plan: SnapshotPlan; busy: boolean; onClose: () => void; onConfirm: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{t('snapshot_plan_delete_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('snapshot_plan_delete_message', { name: plan.name })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" color="error" disabled={busy} onClick={onConfirm}>
          {t('delete')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import type { SnapshotPlan } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { k, messageText } from '../../../i18n/keys';
import { useSavePlan } from '../api/plans';
import { useRoots } from '../api/runs';
import { createBody, draftOf, draftProblem, emptyDraft, type PlanDraft, updateBody } from '../lib/plan-form';
import { ScheduleEditor } from './schedule-editor';
import { useFullScreenDialog } from '../../../components/use-full-screen-dialog';

export interface PlanDialogProps {
  /** The plan to edit; null creates one. */
  plan: SnapshotPlan | null;
  onClose: () => void;
}

/** Creates or edits a plan: name, type, target, save location and password (fixed once created), schedules. */
export function PlanDialog({ plan, onClose }: PlanDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();
  const creating = plan === null;
  const [draft, setDraft] = useState<PlanDraft>(() => (plan ? draftOf(plan) : emptyDraft()));
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const roots = useRoots();
  const save = useSavePlan();
  const problem = draftProblem(draft, creating);
  const set = (patch: Partial<PlanDraft>) => {
    setDraft({ ...draft, ...patch });
    setServerError(null);
  };

  const submit = () => {
    setTouched(true);
    if (problem) return;
    save.mutate(creating ? { id: null, body: createBody(draft) } : { id: plan._id, body: updateBody(draft) }, {
      onSuccess: () => {
        notify(t(creating ? k('snapshot_plan_created') : k('snapshot_plan_saved')));
        onClose();
      },
      onError: (error) => setServerError(error instanceof ApiError ? error.messageKey : 'request_error_message'),
    });
  };

  const shownError = serverError ?? (touched ? problem : null);
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={fullScreen} aria-labelledby="plan-dialog-title">
      {/* The form is the paper's only child: as a flex column it lets the content scroll between the title and the actions. */}
      <form
        noValidate
        style={{ display: 'flex', flexDirection: 'column', minHeight: 0, flex: '1 1 auto' }}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <DialogTitle id="plan-dialog-title">{t(creating ? k('snapshot_plan_new') : k('snapshot_plan_edit'))}</DialogTitle>
        <DialogContent dividers sx={{ display: 'flex', flexDirection: 'column', gap: 2.5 }}>
          <TextField
            label={t('snapshot_plan_name')}
            value={draft.name}
            onChange={(event) => set({ name: event.target.value })}
            required
            autoFocus
            slotProps={{ htmlInput: { maxLength: 100 } }}
            error={touched && draft.name.trim() === ''}
          />
          <Box>
            <FormLabel id="backup-type-label">{t('snapshot_backup_type')}</FormLabel>
            <RadioGroup
              row
              aria-labelledby="backup-type-label"
              value={draft.backupType}
              onChange={(event) => set({ backupType: event.target.value as PlanDraft['backupType'] })}
            >
              <FormControlLabel value="incremental" control={<Radio />} label={t('snapshot_type_incremental')} />
              <FormControlLabel value="full" control={<Radio />} label={t('snapshot_type_full')} />
            </RadioGroup>
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {t(draft.backupType === 'full' ? k('snapshot_type_full_help') : k('snapshot_type_incremental_help'))}
            </Typography>
          </Box>
          <Box>
            <FormLabel id="target-label">{t('snapshot_target')}</FormLabel>
            <RadioGroup
              row
              aria-labelledby="target-label"
              value={draft.allRoots ? 'all' : 'chosen'}
              onChange={(event) => set({ allRoots: event.target.value === 'all' })}
            >
              <FormControlLabel value="all" control={<Radio />} label={t('snapshot_target_all')} />
              <FormControlLabel value="chosen" control={<Radio />} label={t('snapshot_target_chosen')} />
            </RadioGroup>
            {!draft.allRoots && (
              <FormGroup row sx={{ pl: 1 }}>
                {(roots.data ?? []).map((root) => (
                  <FormControlLabel
                    key={root._id}
                    control={
                      <Checkbox
                        checked={draft.roots.includes(root._id)}
                        onChange={(event) => set({ roots: event.target.checked ? [...draft.roots, root._id] : draft.roots.filter((id) => id !== root._id) })}
                      />
                    }
                    label={root.name}
                  />
                ))}
                {roots.data?.length === 0 && <Typography variant="body2">{t('no_data')}</Typography>}
              </FormGroup>
            )}
          </Box>
          <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1.5 }}>
            <FormLabel>{t('snapshot_location')}</FormLabel>
            {creating ? (
              <>
                <TextField
                  select
                  size="small"
                  label={t('snapshot_location_kind')}
                  value={draft.locationKind}
                  onChange={(event) => set({ locationKind: event.target.value as 'local' | 's3' })}
                  sx={{ maxWidth: 280 }}
                >
                  <MenuItem value="local">{t('snapshot_location_local')}</MenuItem>
                  <MenuItem value="s3">{t('snapshot_location_s3')}</MenuItem>
                </TextField>
                {draft.locationKind === 'local' ? (
                  <TextField
                    size="small"
                    label={t('snapshot_location_path')}
                    placeholder="/var/backups/bogwan"
                    value={draft.path}
                    onChange={(event) => set({ path: event.target.value })}
                    helperText={t('snapshot_location_path_help')}
                  />
                ) : (
                  <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
                    <TextField
                      size="small"
                      label={t('snapshot_location_bucket')}
                      value={draft.bucket}
                      onChange={(event) => set({ bucket: event.target.value })}
                    />
                    <TextField
                      size="small"
                      label={t('snapshot_location_prefix')}
                      value={draft.prefix}
                      onChange={(event) => set({ prefix: event.target.value })}
                    />
                  </Box>
                )}
                <Box sx={{ display: 'flex', gap: 1.5, flexWrap: 'wrap' }}>
                  <TextField
                    size="small"
                    type="password"
                    autoComplete="new-password"
                    label={t('snapshot_password')}
                    value={draft.password}
                    onChange={(event) => set({ password: event.target.value })}
                    helperText={t('snapshot_password_help')}
                    sx={{ flex: '1 1 220px' }}
                  />
                  <TextField
                    size="small"
                    type="password"
                    autoComplete="new-password"
                    label={t('snapshot_password_confirm')}
                    value={draft.passwordConfirm}
                    onChange={(event) => set({ passwordConfirm: event.target.value })}
                    error={draft.passwordConfirm !== '' && draft.password !== draft.passwordConfirm}
                    sx={{ flex: '1 1 220px' }}
                  />
                </Box>
              </>
            ) : (
              <Typography variant="body2" sx={{ color: 'text.secondary' }}>
                {plan.location.kind === 'local' ? plan.location.path : `s3://${plan.location.bucket}/${plan.location.prefix}`} · {t('snapshot_location_fixed')}
              </Typography>
            )}
          </Box>
          <ScheduleEditor schedules={draft.schedules} onChange={(schedules) => set({ schedules })} />
          {shownError && (
            <Alert severity="error" role="alert">
              {messageText(t, shownError)}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={save.isPending || (touched && problem !== null)}>
            {t('save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

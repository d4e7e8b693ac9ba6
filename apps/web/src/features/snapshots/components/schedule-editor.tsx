import { MAX_SNAPSHOT_SCHEDULES } from '@bogwan/contracts';
import { mdiDeleteOutline, mdiPlus } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { DAY_LABELS, newSchedule, type ScheduleDraft, WEEK_ORDER } from '../lib/plan-form';

/** Short day names by JavaScript day number. */
export interface ScheduleEditorProps {
  schedules: ScheduleDraft[];
  onChange: (schedules: ScheduleDraft[]) => void;
}

/** Up to five schedules: days of the week, a time (server time zone) and active or paused. */
export function ScheduleEditor({ schedules, onChange }: ScheduleEditorProps) {
  const { t } = useTranslation();
  const full = schedules.length >= MAX_SNAPSHOT_SCHEDULES;
  const update = (index: number, patch: Partial<ScheduleDraft>) => onChange(schedules.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  return (
    <Box role="group" aria-label={t('snapshot_schedules')}>
      <Box sx={{ display: 'flex', alignItems: 'center', mb: 1 }}>
        <Typography variant="subtitle2" sx={{ flexGrow: 1 }}>
          {t('snapshot_schedules')} ({schedules.length}/{MAX_SNAPSHOT_SCHEDULES})
        </Typography>
        <Button size="small" startIcon={<MdiIcon path={mdiPlus} fontSize="small" />} disabled={full} onClick={() => onChange([...schedules, newSchedule()])}>
          {t('snapshot_schedule_add')}
        </Button>
      </Box>
      {schedules.length === 0 && (
        <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
          {t('snapshot_schedule_none')}
        </Typography>
      )}
      {schedules.map((schedule, index) => (
        <Paper
          key={schedule._id ?? `new-${index}`}
          variant="outlined"
          sx={{ p: 1, mb: 1, display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1 }}
          data-testid="schedule-row"
        >
          <ToggleButtonGroup
            size="small"
            value={schedule.days}
            onChange={(_event, days: number[]) => update(index, { days })}
            aria-label={t('snapshot_schedule_days')}
          >
            {WEEK_ORDER.map((day) => (
              <ToggleButton key={day} value={day} sx={{ px: 1.1, py: 0.25 }} aria-label={t(DAY_LABELS[day])}>
                {t(DAY_LABELS[day])}
              </ToggleButton>
            ))}
          </ToggleButtonGroup>
          <TextField
            type="time"
            size="small"
            label={t('snapshot_schedule_time')}
            value={schedule.time}
            onChange={(event) => update(index, { time: event.target.value })}
            slotProps={{ inputLabel: { shrink: true }, htmlInput: { step: 60 } }}
            // Wide enough for the whole value with its AM/PM mark ("오후 11:30") and the clock button.
            sx={{ minWidth: 168 }}
            error={schedule.days.length === 0 || schedule.time === ''}
          />
          <FormControlLabel
            control={
              <Switch checked={schedule.status === 'active'} onChange={(event) => update(index, { status: event.target.checked ? 'active' : 'paused' })} />
            }
            label={schedule.status === 'active' ? t('snapshot_schedule_active') : t('snapshot_schedule_paused')}
          />
          <Box sx={{ flexGrow: 1 }} />
          <Tooltip title={t('snapshot_schedule_remove')}>
            <IconButton aria-label={t('snapshot_schedule_remove')} onClick={() => onChange(schedules.filter((_, i) => i !== index))}>
              <MdiIcon path={mdiDeleteOutline} fontSize="small" />
            </IconButton>
          </Tooltip>
        </Paper>
      ))}
      {full && (
        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
          {t('snapshot_schedule_limit')}
        </Typography>
      )}
    </Box>
  );
}

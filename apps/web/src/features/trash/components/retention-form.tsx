import { TRASH_RETENTION_MAX_DAYS } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { OutlinedField } from '../../../components/outlined-field';
import { messageText } from '../../../i18n/keys';
import { useSetTrashRetention, useTrashRetention } from '../api/trash-retention';

/** Default number of days offered when automatic deletion is switched on. */
const DEFAULT_DAYS = 30;

/** Whether the days field holds a whole number from 1 to the maximum. */
export function validRetentionDays(text: string): boolean {
  if (!/^\d+$/.test(text.trim())) return false;
  const days = Number(text);
  return days >= 1 && days <= TRASH_RETENTION_MAX_DAYS;
}

/** Automatic deletion of old trash: off by default, or after a number of days. */
export function RetentionForm() {
  const { t } = useTranslation();
  const retention = useTrashRetention();
  const save = useSetTrashRetention();
  const [enabled, setEnabled] = useState(false);
  const [days, setDays] = useState(String(DEFAULT_DAYS));
  const saved = retention.data?.days ?? null;

  useEffect(() => {
    if (!retention.data) return;
    setEnabled(retention.data.days !== null);
    if (retention.data.days !== null) setDays(String(retention.data.days));
  }, [retention.data]);

  const valid = !enabled || validRetentionDays(days);
  const next = enabled ? Number(days) : null;
  const changed = retention.data !== undefined && next !== saved;

  return (
    <Box
      component="form"
      aria-label={t('trash_retention')}
      onSubmit={(event) => {
        event.preventDefault();
        if (!valid || !changed) return;
        save.mutate(
          { days: next },
          {
            onSuccess: () => notify(t('trash_retention_saved')),
            onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
          },
        );
      }}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}
    >
      <Box sx={{ flex: '1 1 260px' }}>
        <Typography variant="subtitle2" sx={{ fontWeight: 700 }}>
          {t('trash_retention')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {saved === null ? t('trash_retention_off') : t('trash_retention_on', { count: saved })}
        </Typography>
      </Box>
      <FormControlLabel
        control={<Switch checked={enabled} onChange={(event) => setEnabled(event.target.checked)} disabled={retention.isPending} />}
        label={t('trash_retention_switch')}
      />
      <OutlinedField
        size="small"
        type="number"
        label={t('trash_retention_days')}
        value={days}
        disabled={!enabled}
        onChange={(event) => setDays(event.target.value)}
        error={!valid}
        helperText={valid ? undefined : t('trash_retention_invalid')}
        inputProps={{ min: 1, max: TRASH_RETENTION_MAX_DAYS, step: 1 }}
        sx={{ width: 140 }}
      />
      <Button type="submit" variant="contained" disabled={!valid || !changed || save.isPending}>
        {t('save')}
      </Button>
    </Box>
  );
}

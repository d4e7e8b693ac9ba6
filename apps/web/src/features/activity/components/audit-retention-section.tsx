import { AUDIT_RETENTION_DEFAULT_YEARS, AUDIT_RETENTION_MAX_YEARS, AUDIT_RETENTION_MIN_YEARS } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useAuditSettings, useSetAuditSettings } from '../api/audit-settings';

/** Whether the field holds a whole number of years the server accepts. */
export function validRetentionYears(text: string): boolean {
  if (!/^\d+$/.test(text.trim())) return false;
  const years = Number(text);
  return years >= AUDIT_RETENTION_MIN_YEARS && years <= AUDIT_RETENTION_MAX_YEARS;
}

/**
 * Settings → Audit trail (administrators): how many years records are kept before the
 * daily housekeeping purges them (default 2, at least 1; the chain stays verifiable from
 * the first record kept).
 */
export function AuditRetentionSection() {
  const { t } = useTranslation();
  const settings = useAuditSettings();
  const save = useSetAuditSettings();
  const [years, setYears] = useState(String(AUDIT_RETENTION_DEFAULT_YEARS));
  const saved = settings.data?.retentionYears;

  useEffect(() => {
    if (saved !== undefined) setYears(String(saved));
  }, [saved]);

  if (settings.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  if (settings.isError) return <Alert severity="error">{messageText(t, settings.error instanceof ApiError ? settings.error.messageKey : null)}</Alert>;

  const valid = validRetentionYears(years);
  const changed = valid && Number(years) !== saved;
  return (
    <Box
      component="form"
      aria-label={t('audit_retention')}
      onSubmit={(event) => {
        event.preventDefault();
        if (!changed) return;
        save.mutate(
          { retentionYears: Number(years) },
          {
            onSuccess: () => notify(t('audit_retention_saved')),
            onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
          },
        );
      }}
      sx={{ display: 'flex', flexDirection: 'column', alignItems: 'flex-start', gap: 2, maxWidth: 560 }}
    >
      <Box>
        <Typography variant="subtitle2" component="h3" sx={{ fontWeight: 700 }}>
          {t('audit_retention')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('audit_retention_current', { n: saved })}
        </Typography>
      </Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'flex-start', gap: 2 }}>
        <TextField
          size="small"
          type="number"
          label={t('audit_retention_years')}
          value={years}
          onChange={(event) => setYears(event.target.value)}
          error={!valid}
          helperText={valid ? t('audit_retention_hint') : t('audit_retention_invalid', { min: AUDIT_RETENTION_MIN_YEARS, max: AUDIT_RETENTION_MAX_YEARS })}
          slotProps={{ htmlInput: { min: AUDIT_RETENTION_MIN_YEARS, max: AUDIT_RETENTION_MAX_YEARS, step: 1 } }}
          sx={{ width: 260 }}
        />
        <Button type="submit" variant="contained" disabled={!changed || save.isPending}>
          {t('save')}
        </Button>
      </Box>
    </Box>
  );
}

import { VERSIONS_DEFAULT_COUNT, VERSIONS_DEFAULT_DAYS, VERSIONS_MAX_COUNT, VERSIONS_MAX_DAYS, type VersionSettings } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { k, messageText, type TranslationKey } from '../../../i18n/keys';
import { useSaveVersionSettings, useVersionSettings } from '../api/version-settings';

/** One rule of the policy as the form edits it: on or off, and its number as typed. */
export interface RuleField {
  on: boolean;
  text: string;
}

/** The number of a rule that is on, null when off; undefined when the text is not a whole number in range. */
export function ruleValue(field: RuleField, min: number, max: number): number | null | undefined {
  if (!field.on) return null;
  if (!/^\d+$/.test(field.text.trim())) return undefined;
  const value = Number(field.text);
  return value >= min && value <= max ? value : undefined;
}

export const fieldOf = (value: number | null, fallback: number): RuleField => ({ on: value !== null, text: String(value ?? fallback) });

/** A rule's switch and its number. `switchLabel`: the switch's own label when it means something else than the rule (a root's "own value"). */
export function Rule({
  label,
  field,
  onChange,
  invalid,
  max,
  switchLabel,
}: {
  label: TranslationKey;
  field: RuleField;
  onChange: (next: RuleField) => void;
  invalid: boolean;
  max: number;
  switchLabel?: string;
}) {
  const { t } = useTranslation();
  return (
    <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
      <FormControlLabel
        control={
          <Switch
            checked={field.on}
            onChange={(event) => onChange({ ...field, on: event.target.checked })}
            slotProps={switchLabel ? { input: { 'aria-label': `${switchLabel}: ${t(label)}` } } : undefined}
          />
        }
        label={switchLabel ?? t(label)}
        sx={{ minWidth: 170 }}
      />
      <TextField
        size="small"
        type="number"
        value={field.text}
        disabled={!field.on}
        onChange={(event) => onChange({ ...field, text: event.target.value })}
        error={invalid}
        slotProps={{ htmlInput: { min: 0, max, step: 1, 'aria-label': switchLabel ? `${switchLabel}: ${t(label)}` : t(label) } }}
        sx={{ width: 110 }}
      />
    </Box>
  );
}

/**
 * Settings → Storage: how many earlier versions of a file are kept (at most N per file, and/or
 * those younger than D days; defaults 10 and 30). A root folder may override it (its limit dialog).
 */
export function VersionRetentionForm() {
  const { t } = useTranslation();
  const settings = useVersionSettings();
  const save = useSaveVersionSettings();
  const [count, setCount] = useState<RuleField>(fieldOf(VERSIONS_DEFAULT_COUNT, VERSIONS_DEFAULT_COUNT));
  const [days, setDays] = useState<RuleField>(fieldOf(VERSIONS_DEFAULT_DAYS, VERSIONS_DEFAULT_DAYS));

  useEffect(() => {
    if (!settings.data) return;
    setCount(fieldOf(settings.data.maxVersions, VERSIONS_DEFAULT_COUNT));
    setDays(fieldOf(settings.data.maxAgeDays, VERSIONS_DEFAULT_DAYS));
  }, [settings.data]);

  const maxVersions = ruleValue(count, 0, VERSIONS_MAX_COUNT);
  const maxAgeDays = ruleValue(days, 1, VERSIONS_MAX_DAYS);
  const valid = maxVersions !== undefined && maxAgeDays !== undefined;
  const changed = valid && settings.data !== undefined && (maxVersions !== settings.data.maxVersions || maxAgeDays !== settings.data.maxAgeDays);

  return (
    <Box
      component="form"
      aria-label={t('versions_retention')}
      onSubmit={(event) => {
        event.preventDefault();
        if (!changed) return;
        save.mutate({ maxVersions, maxAgeDays } as VersionSettings, {
          onSuccess: () => notify(t('versions_retention_saved')),
          onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
        });
      }}
      sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}
    >
      <Box sx={{ flex: '1 1 260px' }}>
        <Typography variant="subtitle2" sx={{ fontWeight: 700 }}>
          {t('versions_retention')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('versions_retention_description')}
        </Typography>
        {!valid && (
          <Typography variant="caption" sx={{ color: 'error.main' }}>
            {t('version_settings_invalid')}
          </Typography>
        )}
      </Box>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Rule label={k('versions_retention_count')} field={count} onChange={setCount} invalid={maxVersions === undefined} max={VERSIONS_MAX_COUNT} />
        <Rule label={k('versions_retention_days')} field={days} onChange={setDays} invalid={maxAgeDays === undefined} max={VERSIONS_MAX_DAYS} />
      </Box>
      <Button type="submit" variant="contained" disabled={!changed || save.isPending}>
        {t('save')}
      </Button>
    </Box>
  );
}

import { VERSIONS_MAX_COUNT, VERSIONS_MAX_DAYS, type RootVersionsRequest, type VersionSettings } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { k } from '../../../i18n/keys';
import { useRootVersions, useVersionSettings } from '../api/version-settings';
import { fieldOf, Rule, type RuleField, ruleValue } from './version-retention-form';

/** A root folder's retention as the volume dialog edits it: per rule, its own value (switch on) or the global one (off). */
export interface RootRetentionDraft {
  loaded: boolean;
  count: RuleField;
  days: RuleField;
  setCount: (next: RuleField) => void;
  setDays: (next: RuleField) => void;
  /** What to save: undefined when a number is out of range, null when nothing changed. */
  request: RootVersionsRequest | null | undefined;
  /** The global policy: what a rule without the root's own value follows. */
  global: VersionSettings | undefined;
}

export function useRootRetentionDraft(path: string): RootRetentionDraft {
  const current = useRootVersions(path);
  const [count, setCount] = useState<RuleField>({ on: false, text: '' });
  const [days, setDays] = useState<RuleField>({ on: false, text: '' });
  const global = useVersionSettings().data;

  useEffect(() => {
    const data = current.data;
    if (!data) return;
    setCount(fieldOf(data.maxVersions, data.effective.maxVersions ?? 10));
    setDays(fieldOf(data.maxAgeDays, data.effective.maxAgeDays ?? 30));
  }, [current.data]);

  const maxVersions = ruleValue(count, 0, VERSIONS_MAX_COUNT);
  const maxAgeDays = ruleValue(days, 1, VERSIONS_MAX_DAYS);
  const data = current.data;
  let request: RootVersionsRequest | null | undefined = null;
  if (maxVersions === undefined || maxAgeDays === undefined) request = undefined;
  else if (data && (maxVersions !== data.maxVersions || maxAgeDays !== data.maxAgeDays)) request = { path, maxVersions, maxAgeDays };
  return { loaded: data !== undefined, count, days, setCount, setDays, request, global };
}

/** The volume dialog's retention part: the root's own rules, and what the global policy says where it has none. */
export function RootVersionRetention({ draft }: { draft: RootRetentionDraft }) {
  const { t } = useTranslation();
  if (!draft.loaded) return null;
  const own = t('versions_root_own');
  const followed = (value: number | null | undefined, unit: 'count' | 'days') => {
    if (value === null || value === undefined) return t('versions_root_global_off');
    return unit === 'count' ? t('versions_root_global_count', { count: value }) : t('versions_root_global_days', { count: value });
  };
  return (
    <Box role="group" aria-labelledby="root-retention-title">
      <Typography id="root-retention-title" variant="subtitle2" sx={{ fontWeight: 700 }}>
        {t('versions_root_title')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
        {t('versions_root_description')}
      </Typography>
      <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
        <Box>
          <Typography variant="body2">{t('versions_retention_count')}</Typography>
          <Rule
            label={k('versions_retention_count')}
            switchLabel={own}
            field={draft.count}
            onChange={draft.setCount}
            invalid={draft.request === undefined && draft.count.on}
            max={VERSIONS_MAX_COUNT}
          />
          {!draft.count.on && (
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {followed(draft.global?.maxVersions, 'count')}
            </Typography>
          )}
        </Box>
        <Box>
          <Typography variant="body2">{t('versions_retention_days')}</Typography>
          <Rule
            label={k('versions_retention_days')}
            switchLabel={own}
            field={draft.days}
            onChange={draft.setDays}
            invalid={draft.request === undefined && draft.days.on}
            max={VERSIONS_MAX_DAYS}
          />
          {!draft.days.on && (
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {followed(draft.global?.maxAgeDays, 'days')}
            </Typography>
          )}
        </Box>
      </Box>
    </Box>
  );
}

import type { AuditOutcome } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { OutlinedField } from '../../../components/outlined-field';
import { isFiltered, EMPTY_FILTER, type AuditViewFilter } from '../lib/audit-filter';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { ActionFilter } from './action-filter';
import { PersonFilter } from './person-filter';

const PATH_DELAY_MS = 400;

export interface AuditFilterBarProps {
  filter: AuditViewFilter;
  /** The fields that changed; the owner merges them into its latest filter (quick edits in a row all land). */
  onChange: (patch: Partial<AuditViewFilter>) => void;
  /** The person filter (administrators; an account sees only its own records anyway). */
  person: boolean;
  /** Buttons at the end of the bar (export, refresh). */
  actions?: ReactNode;
}

/** Person, path prefix, actions, outcome and a range of days; the bar wraps on a narrow screen. */
export function AuditFilterBar({ filter, onChange, person, actions }: AuditFilterBarProps) {
  const { t } = useTranslation();
  const [pathDraft, setPathDraft] = useState(filter.path);
  useEffect(() => setPathDraft(filter.path), [filter.path]);
  const settledPath = useDebouncedValue(pathDraft, PATH_DELAY_MS);
  useEffect(() => {
    if (settledPath !== filter.path) onChange({ path: settledPath });
    // Only a settled edit of the path applies it; other changes carry the path already.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settledPath]);
  const update = (patch: Partial<AuditViewFilter>) => onChange({ path: pathDraft, ...patch });

  return (
    <Box
      component="form"
      role="search"
      aria-label={t('activity_filters')}
      onSubmit={(event) => {
        event.preventDefault();
        update({});
      }}
      sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mb: 1.5 }}
    >
      {person && <PersonFilter value={filter.actor} label={filter.actorLabel} onChange={({ id, label }) => update({ actor: id, actorLabel: label })} />}
      <OutlinedField
        size="small"
        shrink
        label={t('audit_filter_path')}
        placeholder={t('audit_filter_path_hint')}
        value={pathDraft}
        onChange={(event) => setPathDraft(event.target.value)}
        sx={{ width: { xs: '100%', sm: 220 } }}
      />
      <ActionFilter value={filter.actions} onChange={(next) => update({ actions: next })} />
      {/* The browser's own select list in MUI's outline, as the access log's method filter. */}
      <OutlinedField
        size="small"
        shrink
        label={t('audit_filter_outcome')}
        value={filter.outcome}
        onChange={(event) => update({ outcome: event.target.value as AuditOutcome | '' })}
        options={
          <>
            <option value="">{t('audit_outcome_all')}</option>
            <option value="allowed">{t('audit_outcome_allowed')}</option>
            <option value="refused">{t('audit_outcome_refused')}</option>
          </>
        }
        sx={{ width: { xs: 'calc(50% - 6px)', sm: 120 } }}
      />
      <OutlinedField
        type="date"
        size="small"
        shrink
        label={t('activity_from')}
        value={filter.from}
        onChange={(event) => update({ from: event.target.value })}
        inputProps={{ max: filter.to || undefined }}
        sx={{ width: { xs: 'calc(50% - 6px)', sm: 160 } }}
      />
      <OutlinedField
        type="date"
        size="small"
        shrink
        label={t('activity_to')}
        value={filter.to}
        onChange={(event) => update({ to: event.target.value })}
        inputProps={{ min: filter.from || undefined }}
        sx={{ width: { xs: 'calc(50% - 6px)', sm: 160 } }}
      />
      {isFiltered({ ...filter, path: pathDraft }) && (
        <Button
          size="small"
          onClick={() => {
            // The typed path goes too, so a pending edit cannot bring it back a moment later.
            setPathDraft('');
            onChange(EMPTY_FILTER);
          }}
        >
          {t('activity_clear_filters')}
        </Button>
      )}
      <Box sx={{ flexGrow: 1 }} />
      {actions && <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, flexWrap: 'wrap' }}>{actions}</Box>}
    </Box>
  );
}

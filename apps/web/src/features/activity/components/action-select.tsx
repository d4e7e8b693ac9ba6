import type { AuditAction } from '@bogwan/contracts';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../i18n/use-locale';
import { actionLabel, actionsByFamily, familyLabel } from '../lib/action-text';

export interface ActionFilterProps {
  value: AuditAction[];
  onChange: (actions: AuditAction[]) => void;
}

/** The action filter: several actions at once, listed under their family, in the reader's language. */
export function ActionFilter({ value, onChange }: ActionFilterProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const groups = useMemo(() => actionsByFamily(), []);
  const chosen = new Set<string>(value);
  return (
    <TextField
      select
      size="small"
      label={t('audit_filter_action')}
      value={value}
      onChange={(event) => {
        const next = event.target.value as unknown as string[] | string;
        onChange((typeof next === 'string' ? next.split(',') : next).filter(Boolean) as AuditAction[]);
      }}
      slotProps={{
        inputLabel: { shrink: true },
        select: {
          multiple: true,
          displayEmpty: true,
          renderValue: (selected) => {
            const list = selected as string[];
            if (list.length === 0) return t('audit_filter_actions_all');
            if (list.length === 1) return actionLabel(locale, list[0]!);
            return t('audit_filter_actions_count', { count: list.length });
          },
          MenuProps: { slotProps: { paper: { sx: { maxHeight: 420 } } } },
        },
      }}
      sx={{ width: { xs: '100%', sm: 200 } }}
    >
      {groups.flatMap(({ family, actions }) => [
        <ListSubheader key={`family-${family}`}>{familyLabel(t, family)}</ListSubheader>,
        ...actions.map((action) => (
          <MenuItem key={action} value={action} dense>
            <Checkbox size="small" checked={chosen.has(action)} sx={{ p: 0.5, mr: 1 }} />
            <ListItemText primary={actionLabel(locale, action)} />
          </MenuItem>
        )),
      ])}
    </TextField>
  );
}

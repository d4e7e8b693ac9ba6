import type { AuditAction } from '@bogwan/contracts';
import Checkbox from '@mui/material/Checkbox';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../i18n/use-locale';
import { actionLabel, actionsByFamily, familyLabel } from '../lib/action-text';
import { actionsText, type ActionFilterProps } from './action-filter';

export interface ActionSelectProps extends ActionFilterProps {
  /** Takes the focus when it appears (the light stand-in before it had it). */
  autoFocus: boolean;
  /** Appears open (the stand-in was pressed, or a key that opens a select was). */
  openAtStart: boolean;
}

/** The action filter as MUI's Select: several actions at once, listed under their family, in the reader's language. */
export function ActionSelect({ value, onChange, autoFocus, openAtStart }: ActionSelectProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const groups = useMemo(() => actionsByFamily(), []);
  const [open, setOpen] = useState(openAtStart);
  const chosen = new Set<string>(value);
  return (
    <TextField
      select
      size="small"
      autoFocus={autoFocus}
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
          open,
          onOpen: () => setOpen(true),
          onClose: () => setOpen(false),
          renderValue: (selected) => actionsText(t, locale, selected as string[]),
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

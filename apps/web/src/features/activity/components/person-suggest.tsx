import type { AuditPerson } from '@bogwan/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { usePeople } from '../api/get-people';
import { useDebouncedValue } from '../lib/use-debounced-value';
import { personLabel, type PersonFilterProps } from './person-filter';

const SUGGEST_DELAY_MS = 250;

export interface PersonSuggestProps extends PersonFilterProps {
  /** The typed text, kept by the person filter (the light field before this one had it). */
  input: string;
  setInput: (input: string) => void;
  open: boolean;
  setOpen: (open: boolean) => void;
  /** The light field's caret when it had the focus: this field takes both over. */
  handover: { start: number | null; end: number | null } | null;
}

/** The person filter's field with MUI's Autocomplete: the server's suggestions as one types. */
export function PersonSuggest({ value, label, onChange, input, setInput, open, setOpen, handover }: PersonSuggestProps) {
  const { t } = useTranslation();
  const field = useRef<HTMLInputElement>(null);
  const q = useDebouncedValue(input.trim(), SUGGEST_DELAY_MS);
  const people = usePeople(q, open);
  const chosen: AuditPerson | null = value ? { _id: value, name: label, email: '' } : null;
  const options = people.data ?? [];

  // Mounted in place of the focused light field: the focus and the caret move here.
  useLayoutEffect(() => {
    const element = field.current;
    if (!handover || !element) return;
    element.focus();
    element.setSelectionRange(handover.start, handover.end);
    // Only on mount.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  return (
    <Autocomplete<AuditPerson>
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      value={chosen}
      inputValue={input}
      options={options}
      loading={people.isFetching}
      filterOptions={(all) => all}
      isOptionEqualToValue={(option, current) => option._id === current._id}
      getOptionLabel={(option) => (option.email ? personLabel(option) : option.name)}
      noOptionsText={t('audit_filter_people_none')}
      loadingText={t('loading')}
      onInputChange={(_event, next, reason) => {
        if (reason !== 'reset') setInput(next);
        if (reason === 'clear') onChange({ id: '', label: '' });
      }}
      onChange={(_event, person) => onChange(person ? { id: person._id, label: personLabel(person) } : { id: '', label: '' })}
      renderOption={({ key, ...props }, option) => (
        <li key={key} {...props}>
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2">{option.name}</Typography>
            <Typography variant="caption" sx={{ color: 'text.secondary' }}>
              {option.email}
            </Typography>
          </Box>
        </li>
      )}
      sx={{ width: { xs: '100%', sm: 260 } }}
      renderInput={(params) => (
        <TextField {...params} inputRef={field} size="small" label={t('audit_filter_person')} placeholder={t('audit_filter_person_hint')} />
      )}
    />
  );
}

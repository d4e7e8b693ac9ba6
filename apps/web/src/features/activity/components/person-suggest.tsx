import type { AuditPerson } from '@bogwan/contracts';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePeople } from '../api/get-people';
import { useDebouncedValue } from '../lib/use-debounced-value';

const SUGGEST_DELAY_MS = 250;

export interface PersonFilterProps {
  /** The chosen account id, or ''. */
  value: string;
  /** How the chosen person is shown (from the URL when the page was opened by a bookmark). */
  label: string;
  onChange: (person: { id: string; label: string }) => void;
}

const personLabel = (person: AuditPerson) => `${person.name} · ${person.email}`;

/** The person filter: type part of a name or an e-mail, pick an account from the server's suggestions. */
export function PersonFilter({ value, label, onChange }: PersonFilterProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState(label);
  const [open, setOpen] = useState(false);
  useEffect(() => setInput(label), [label]);
  const q = useDebouncedValue(input.trim(), SUGGEST_DELAY_MS);
  const people = usePeople(q, open);
  const chosen: AuditPerson | null = value ? { _id: value, name: label, email: '' } : null;
  const options = people.data ?? [];

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
      renderInput={(params) => <TextField {...params} size="small" label={t('audit_filter_person')} placeholder={t('audit_filter_person_hint')} />}
    />
  );
}

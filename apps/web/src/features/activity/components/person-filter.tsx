import type { AuditPerson } from '@bogwan/contracts';
import { mdiMenuDown } from '@mdi/js';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { onDemand, useOnDemand } from '../../../components/on-demand';
import { OutlinedField } from '../../../components/outlined-field';

export interface PersonFilterProps {
  /** The chosen account id, or ''. */
  value: string;
  /** How the chosen person is shown (from the URL when the page was opened by a bookmark). */
  label: string;
  onChange: (person: { id: string; label: string }) => void;
}

export const personLabel = (person: AuditPerson) => `${person.name} · ${person.email}`;

// MUI's Autocomplete (with its popper: ~17 KB gzip) arrives with the first hover, focus or touch.
const suggest = onDemand(() => import('./person-suggest').then((module) => module.PersonSuggest));

/**
 * The person filter: type part of a name or an e-mail, pick an account from the server's
 * suggestions. Until the suggestions' code is there it is a plain field of the same look and
 * role; what was typed into it, its focus and its caret go over to the real one.
 */
export function PersonFilter({ value, label, onChange }: PersonFilterProps) {
  const { t } = useTranslation();
  const [input, setInput] = useState(label);
  const [open, setOpen] = useState(false);
  useEffect(() => setInput(label), [label]);
  const field = useRef<HTMLInputElement>(null);
  const [handover, setHandover] = useState<{ start: number | null; end: number | null } | null>(null);
  const [Suggest, ask] = useOnDemand(suggest, () => {
    const element = field.current;
    if (element && element === document.activeElement) setHandover({ start: element.selectionStart, end: element.selectionEnd });
  });

  if (Suggest) {
    return <Suggest value={value} label={label} onChange={onChange} input={input} setInput={setInput} open={open} setOpen={setOpen} handover={handover} />;
  }
  return (
    <OutlinedField
      size="small"
      label={t('audit_filter_person')}
      placeholder={t('audit_filter_person_hint')}
      value={input}
      inputRef={field}
      onChange={(event) => {
        setInput(event.target.value);
        // Typing opens the suggestions, as it does in the real field.
        setOpen(true);
        ask();
      }}
      onMouseEnter={ask}
      onFocus={ask}
      onTouchStart={ask}
      inputProps={{ role: 'combobox', 'aria-expanded': false, 'aria-autocomplete': 'list', autoComplete: 'off' }}
      endAdornment={<MdiIcon path={mdiMenuDown} sx={{ color: 'action.active', mr: -0.5, pointerEvents: 'none' }} />}
      sx={{ width: { xs: '100%', sm: 260 } }}
    />
  );
}

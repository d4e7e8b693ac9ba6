import type { AuditAction, Locale } from '@bogwan/contracts';
import { mdiMenuDown } from '@mdi/js';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import OutlinedInput from '@mui/material/OutlinedInput';
import type { TFunction } from 'i18next';
import { useId, useRef, useState, type FocusEventHandler, type KeyboardEvent, type MouseEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { onDemand, useOnDemand } from '../../../components/on-demand';
import { useLocale } from '../../../i18n/use-locale';
import { actionLabel } from '../lib/action-text';

export interface ActionFilterProps {
  value: AuditAction[];
  onChange: (actions: AuditAction[]) => void;
}

/** What the closed filter shows: all actions, the one chosen, or how many. */
export function actionsText(t: TFunction, locale: Locale, actions: readonly string[]): string {
  if (actions.length === 0) return t('audit_filter_actions_all');
  if (actions.length === 1) return actionLabel(locale, actions[0]!);
  return t('audit_filter_actions_count', { count: actions.length });
}

// MUI's Select with its menu and checkboxes (~14 KB gzip) arrives with the first hover, focus or touch.
const select = onDemand(() => import('./action-select').then((module) => module.ActionSelect));

const OPEN_KEYS = new Set([' ', 'Enter', 'ArrowDown', 'ArrowUp']);

// What OutlinedInput passes to its input component, of what the look uses.
interface LookProps {
  ref?: Ref<HTMLDivElement>;
  id?: string;
  className?: string;
  value?: unknown;
  onFocus?: FocusEventHandler<Element>;
  onBlur?: FocusEventHandler<Element>;
  labelId: string;
  onOpen: () => void;
}

/** The closed select as MUI's Select draws it: a focusable combobox showing the choice. */
function SelectLook({ ref, id, className, value, labelId, onFocus, onBlur, onOpen }: LookProps) {
  return (
    <div
      ref={ref}
      id={id}
      className={className}
      // No aria-controls while closed: the listbox does not exist yet (MUI's Select sets it only when open).
      // eslint-disable-next-line jsx-a11y/role-has-required-aria-props
      role="combobox"
      tabIndex={0}
      aria-haspopup="listbox"
      aria-expanded="false"
      aria-labelledby={`${labelId} ${id}`}
      onFocus={onFocus}
      onBlur={onBlur}
      onMouseDown={(event: MouseEvent) => {
        if (event.button === 0) onOpen();
      }}
      onKeyDown={(event: KeyboardEvent) => {
        if (!OPEN_KEYS.has(event.key)) return;
        event.preventDefault();
        onOpen();
      }}
    >
      {value as string}
    </div>
  );
}

/**
 * The action filter: several actions at once, listed under their family, in the reader's
 * language. Until MUI's Select is there it is drawn alike; a press or an opening key before
 * then opens the real one as soon as it arrives, which also takes over the focus.
 */
export function ActionFilter({ value, onChange }: ActionFilterProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const labelId = useId();
  const displayId = useId();
  const display = useRef<HTMLDivElement>(null);
  const wanted = useRef(false);
  const [start, setStart] = useState({ focus: false, open: false });
  const [Select, ask] = useOnDemand(select, () => setStart({ focus: display.current === document.activeElement, open: wanted.current }));
  const width = { xs: '100%', sm: 200 };

  if (Select) return <Select value={value} onChange={onChange} autoFocus={start.focus} openAtStart={start.open} />;
  const label = t('audit_filter_action');
  return (
    <FormControl size="small" sx={{ width }} onMouseEnter={ask} onTouchStart={ask}>
      <InputLabel id={labelId} shrink>
        {label}
      </InputLabel>
      <OutlinedInput
        notched
        id={displayId}
        label={label}
        value={actionsText(t, locale, value)}
        inputRef={display}
        inputComponent={SelectLook as never}
        inputProps={{
          labelId,
          onOpen: () => {
            wanted.current = true;
            ask();
          },
        }}
        onFocus={ask}
        endAdornment={
          <MdiIcon path={mdiMenuDown} sx={{ position: 'absolute', right: 7, top: 'calc(50% - 0.5em)', color: 'action.active', pointerEvents: 'none' }} />
        }
        sx={{
          '& .MuiInputBase-input': {
            height: 'auto',
            minHeight: '1.4375em',
            pr: '32px',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            whiteSpace: 'nowrap',
            cursor: 'pointer',
            userSelect: 'none',
          },
        }}
      />
    </FormControl>
  );
}

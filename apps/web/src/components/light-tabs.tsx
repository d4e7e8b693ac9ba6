import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { useRef, type KeyboardEvent } from 'react';

interface LightTabsProps {
  /** The tabs' labels, already translated. */
  labels: string[];
  value: number;
  onChange: (value: number) => void;
  /** The tab list's accessible name. */
  'aria-label'?: string;
}

/**
 * A row of text tabs drawn like MUI's Tabs (an underline under the selected one) without
 * loading them: for a page with two or three fixed tabs. Keyboard as MUI's: the arrow keys,
 * Home and End move the focus along the tabs, Enter or Space selects; only the selected
 * tab is in the Tab order.
 */
export function LightTabs({ labels, value, onChange, 'aria-label': label }: LightTabsProps) {
  const list = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent) => {
    const tabs = [...(list.current?.querySelectorAll<HTMLElement>('[role="tab"]') ?? [])];
    const at = tabs.indexOf(document.activeElement as HTMLElement);
    if (at < 0) return;
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    tabs[(next + tabs.length) % tabs.length]?.focus();
  };
  return (
    <Box ref={list} role="tablist" aria-label={label} onKeyDown={onKeyDown} sx={{ display: 'flex', minHeight: 48, mb: 2, overflowX: 'auto' }}>
      {labels.map((text, index) => {
        const selected = index === value;
        return (
          <ButtonBase
            key={text}
            role="tab"
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(index)}
            className={selected ? 'Mui-selected' : undefined}
            sx={{
              minHeight: 48,
              minWidth: 90,
              maxWidth: 360,
              px: 2,
              py: 1.5,
              flexShrink: 0,
              typography: 'button',
              lineHeight: 1.25,
              color: selected ? 'primary.text' : 'text.secondary',
              borderBottom: 2,
              borderColor: selected ? 'primary.main' : 'transparent',
              transition: (theme) => theme.transitions.create(['color', 'border-color']),
            }}
          >
            {text}
          </ButtonBase>
        );
      })}
    </Box>
  );
}

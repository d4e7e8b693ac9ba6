import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import { useRef, type ReactNode } from 'react';
import { moveFocusInRow } from './roving-focus';

export interface ToggleGroupOption<T extends string> {
  value: T;
  /** The button's accessible name, already translated. */
  label: string;
  icon: ReactNode;
}

export interface ToggleGroupProps<T extends string> {
  value: T;
  options: ReadonlyArray<ToggleGroupOption<T>>;
  onChange: (value: T) => void;
  /** The group's accessible name. */
  'aria-label': string;
}

/**
 * A row of icon buttons of which one is chosen, drawn as MUI's small exclusive
 * ToggleButtonGroup with the same roles and keys: a `group` of buttons with `aria-pressed`,
 * the chosen one in the tab order, the arrow keys (wrapping), Home and End moving among them,
 * Enter or Space choosing. MUI's group brings its roving-focus code (4 KB gzip) to the page.
 */
export function ToggleGroup<T extends string>({ value, options, onChange, 'aria-label': label }: ToggleGroupProps<T>) {
  const group = useRef<HTMLDivElement>(null);
  return (
    <Box
      ref={group}
      role="group"
      aria-label={label}
      onKeyDown={(event) => moveFocusInRow(event, group.current, 'button')}
      sx={{ display: 'inline-flex', borderRadius: 1 }}
    >
      {options.map((option, index) => {
        const selected = option.value === value;
        return (
          <ButtonBase
            key={option.value}
            aria-label={option.label}
            aria-pressed={selected}
            tabIndex={selected ? 0 : -1}
            focusRipple
            onClick={() => {
              if (!selected) onChange(option.value);
            }}
            sx={(theme) => {
              const { text, action, divider } = theme.palette;
              return {
                ...theme.typography.button,
                p: '7px',
                border: `1px solid ${divider}`,
                borderRadius: 1,
                color: selected ? text.primary : action.active,
                bgcolor: selected ? theme.alpha(text.primary, action.selectedOpacity) : undefined,
                '&:hover': {
                  bgcolor: theme.alpha(text.primary, selected ? action.selectedOpacity + action.hoverOpacity : action.hoverOpacity),
                  '@media (hover: none)': { bgcolor: selected ? theme.alpha(text.primary, action.selectedOpacity) : 'transparent' },
                },
                '&.Mui-focusVisible': { zIndex: 1 },
                ...(index > 0 && { ml: '-1px', borderLeftColor: 'transparent', borderTopLeftRadius: 0, borderBottomLeftRadius: 0 }),
                ...(index < options.length - 1 && { borderTopRightRadius: 0, borderBottomRightRadius: 0 }),
              };
            }}
          >
            {option.icon}
          </ButtonBase>
        );
      })}
    </Box>
  );
}

import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import type { SxProps, Theme } from '@mui/material/styles';
import { useRef } from 'react';
import { PRIMARY_TEXT } from '../app/theme';
import { moveFocusInRow } from './roving-focus';

export interface TabStripProps {
  /** The tabs' names, already translated. */
  labels: readonly string[];
  value: number;
  onChange: (index: number) => void;
  /** The tab list's accessible name. */
  'aria-label'?: string;
  sx?: SxProps<Theme>;
}

/**
 * A row of tabs drawn as MUI's Tabs (text tabs, the selected one underlined in the primary
 * colour) with the same roles and keys: a `tablist` of `tab`s, the selected one in the tab
 * order, arrow keys, Home and End moving among them, Enter or Space choosing. For a page
 * whose first view has a few fixed tabs: MUI's Tabs carries the code of scrolling tabs and
 * of its moving indicator.
 */
export function TabStrip({ labels, value, onChange, 'aria-label': label, sx }: TabStripProps) {
  const list = useRef<HTMLDivElement>(null);
  return (
    <Box
      ref={list}
      role="tablist"
      aria-label={label}
      aria-orientation="horizontal"
      onKeyDown={(event) => moveFocusInRow(event, list.current, '[role="tab"]')}
      sx={[{ display: 'flex', minHeight: 48, overflowX: 'auto' }, ...(Array.isArray(sx) ? sx : [sx])]}
    >
      {labels.map((label, index) => {
        const selected = index === value;
        return (
          <ButtonBase
            key={label}
            role="tab"
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            onClick={() => onChange(index)}
            sx={(theme) => ({
              minHeight: 48,
              minWidth: 90,
              maxWidth: 360,
              px: 2,
              py: 1.5,
              flexShrink: 0,
              ...theme.typography.button,
              lineHeight: 1.25,
              color: selected ? PRIMARY_TEXT[theme.palette.mode] : theme.palette.text.secondary,
              borderBottom: '2px solid',
              borderBottomColor: selected ? theme.palette.primary.main : 'transparent',
              transition: theme.transitions.create(['color', 'border-color'], { duration: theme.transitions.duration.shorter }),
              '&.Mui-focusVisible': { bgcolor: theme.palette.action.focus },
            })}
          >
            {label}
          </ButtonBase>
        );
      })}
    </Box>
  );
}

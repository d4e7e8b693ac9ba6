import Box from '@mui/material/Box';
import type { HTMLAttributes, ReactNode } from 'react';
import { PRIMARY_TEXT } from '../app/theme';

type TagColor = 'default' | 'primary' | 'secondary' | 'info' | 'success' | 'warning' | 'error';

export interface TagProps extends Omit<HTMLAttributes<HTMLSpanElement>, 'color'> {
  label: ReactNode;
  color?: TagColor;
  variant?: 'filled' | 'outlined';
  /** A small icon before the label. */
  icon?: ReactNode;
  [data: `data-${string}`]: string | undefined;
}

/**
 * A small label drawn as MUI's small Chip (and the theme's chip colours), for a chip that
 * only shows a text: no click, no delete. MUI's Chip brings its own code (the delete icon,
 * the clickable states) to every page that shows one.
 */
export function Tag({ label, color = 'default', variant = 'filled', icon, ...rest }: TagProps) {
  return (
    <Box
      component="span"
      {...rest}
      sx={(theme) => {
        const dark = theme.palette.mode === 'dark';
        const colour = color === 'default' ? null : theme.palette[color];
        const outlinedText = color === 'primary' ? PRIMARY_TEXT[theme.palette.mode] : colour && (dark ? colour.light : colour.dark);
        return {
          display: 'inline-flex',
          alignItems: 'center',
          justifyContent: 'center',
          gap: 0.5,
          maxWidth: '100%',
          height: 24,
          px: variant === 'outlined' ? '7px' : 1,
          borderRadius: 12,
          boxSizing: 'border-box',
          verticalAlign: 'middle',
          whiteSpace: 'nowrap',
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          fontFamily: theme.typography.fontFamily,
          fontSize: theme.typography.pxToRem(13),
          lineHeight: 1.5,
          '& svg': { fontSize: 18, ml: -0.5, flexShrink: 0 },
          ...(variant === 'outlined'
            ? {
                color: outlinedText ?? theme.palette.text.primary,
                border: `1px solid ${colour ? theme.alpha(colour.main, 0.7) : dark ? theme.palette.grey[700] : theme.palette.grey[400]}`,
              }
            : { color: colour ? colour.contrastText : theme.palette.text.primary, bgcolor: colour ? colour.main : theme.palette.action.selected }),
        };
      }}
    >
      {icon}
      {icon ? (
        <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>
          {label}
        </Box>
      ) : (
        label
      )}
    </Box>
  );
}

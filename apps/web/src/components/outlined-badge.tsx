import Box from '@mui/material/Box';
import type { ReactNode } from 'react';

type BadgeColor = 'default' | 'success' | 'warning' | 'error' | 'info';

interface OutlinedBadgeProps {
  label: ReactNode;
  color?: BadgeColor;
  /** A small icon before the label. */
  icon?: ReactNode;
  'data-status'?: string;
}

/**
 * A short label in an outlined pill, drawn like a small outlined MUI Chip without loading
 * Chip: for a status in a table or a list, which is never clicked.
 */
export function OutlinedBadge({ label, color = 'default', icon, 'data-status': status }: OutlinedBadgeProps) {
  const main = color === 'default' ? 'text.primary' : `${color}.main`;
  return (
    <Box
      component="span"
      data-status={status}
      sx={{
        display: 'inline-flex',
        alignItems: 'center',
        gap: 0.5,
        height: 24,
        maxWidth: '100%',
        boxSizing: 'border-box',
        px: 1,
        borderRadius: 3,
        border: 1,
        borderColor: color === 'default' ? 'divider' : main,
        color: main,
        fontSize: '0.8125rem',
        lineHeight: 1.5,
        whiteSpace: 'nowrap',
        verticalAlign: 'middle',
        '& svg': { fontSize: 18, ml: -0.5 },
      }}
    >
      {icon}
      <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', color: color === 'default' ? 'text.primary' : undefined }}>
        {label}
      </Box>
    </Box>
  );
}

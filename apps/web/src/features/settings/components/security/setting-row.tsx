import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { MdiIcon } from '../../../../components/mdi-icon';

interface SettingRowProps {
  icon: string;
  title: string;
  description: ReactNode;
  /** Buttons on the right. */
  action?: ReactNode;
  /** More controls under the description. */
  children?: ReactNode;
}

/** One item of a settings form: icon, title, description, and its controls. */
export function SettingRow({ icon, title, description, action, children }: SettingRowProps) {
  return (
    <Box sx={{ display: 'flex', gap: 2, py: 2.5, alignItems: 'flex-start', flexWrap: { xs: 'wrap', sm: 'nowrap' }, wordBreak: 'keep-all' }}>
      <Box
        aria-hidden
        sx={{
          width: 40,
          height: 40,
          flexShrink: 0,
          borderRadius: 2,
          display: 'grid',
          placeItems: 'center',
          bgcolor: 'action.selected',
          color: 'primary.main',
        }}
      >
        <MdiIcon path={icon} />
      </Box>
      <Box sx={{ flexGrow: 1, minWidth: 0, flexBasis: { xs: 'calc(100% - 56px)', sm: 'auto' } }}>
        <Typography variant="subtitle1" component="h4" sx={{ fontWeight: 600 }}>
          {title}
        </Typography>
        <Typography variant="body2" component="div" sx={{ color: 'text.secondary', mt: 0.25 }}>
          {description}
        </Typography>
        {children}
      </Box>
      {action && <Box sx={{ flexShrink: 0, ml: { xs: 7, sm: 0 } }}>{action}</Box>}
    </Box>
  );
}

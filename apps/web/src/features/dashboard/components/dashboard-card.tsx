import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';

/** A titled card of the dashboard. */
export function DashboardCard({ title, id, children, action }: { title: string; id: string; children: ReactNode; action?: ReactNode }) {
  return (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={`dashboard-${id}`}
      sx={{ borderRadius: 2, p: 2, display: 'flex', flexDirection: 'column', gap: 1.5, minWidth: 0, height: '100%' }}
    >
      <Typography id={`dashboard-${id}`} variant="subtitle1" component="h2" sx={{ fontWeight: 700, display: 'flex', alignItems: 'center', gap: 1 }}>
        {title}
        {action}
      </Typography>
      {children}
    </Paper>
  );
}

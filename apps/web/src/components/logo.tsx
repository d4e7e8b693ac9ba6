import { mdiArchiveLockOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import { MdiIcon } from './mdi-icon';

/** The product mark: a locked archive box on the primary colour. */
export function Logo({ size = 32 }: { size?: number }) {
  return (
    <Box
      aria-hidden
      sx={{
        width: size,
        height: size,
        flexShrink: 0,
        borderRadius: `${Math.round(size / 4)}px`,
        bgcolor: 'primary.main',
        color: 'primary.contrastText',
        display: 'grid',
        placeItems: 'center',
      }}
    >
      <MdiIcon path={mdiArchiveLockOutline} sx={{ fontSize: size * 0.62 }} />
    </Box>
  );
}

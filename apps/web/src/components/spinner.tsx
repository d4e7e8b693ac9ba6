import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import { useTranslation } from 'react-i18next';

/** Shown while a viewer fetches and decodes. */
export function Spinner() {
  const { t } = useTranslation();
  return (
    <Box sx={{ height: '100%', minHeight: 240, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
      <CircularProgress aria-label={t('loading')} sx={{ color: 'grey.300' }} />
    </Box>
  );
}

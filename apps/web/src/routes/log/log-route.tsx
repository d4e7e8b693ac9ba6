import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { AccessLogTable } from '../../features/system/components/access-log-table';
import { CatalogueParts } from '../../i18n/catalogue-parts-gate';

/** /log (administrators): the system and API log, with filters and CSV export. */
export function LogRoute() {
  return (
    <Suspense fallback={null}>
      <CatalogueParts parts={['log']}>
        <LogRoutePage />
      </CatalogueParts>
    </Suspense>
  );
}

/** The page itself, drawn once the texts it reads are there. */
function LogRoutePage() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${t('nav_log')} · ${t('app_title')}`;
  }, [t]);
  return (
    <Box component="section" sx={{ maxWidth: 1400, mx: 'auto', width: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {t('nav_log')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('log_description')}
      </Typography>
      <Paper variant="outlined" sx={{ borderRadius: 2, p: 2 }}>
        <AccessLogTable />
      </Paper>
    </Box>
  );
}

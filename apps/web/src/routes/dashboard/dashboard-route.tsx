import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { DashboardView } from '../../features/dashboard/components/dashboard-view';
import { CatalogueParts } from '../../i18n/catalogue-parts-gate';

/** /dashboard (administrators): storage, accounts, transfers, tasks, backups and licence at a glance. */
export function DashboardRoute() {
  return (
    <Suspense fallback={null}>
      <CatalogueParts parts={['dashboard']}>
        <DashboardRoutePage />
      </CatalogueParts>
    </Suspense>
  );
}

/** The page itself, drawn once the texts it reads are there. */
function DashboardRoutePage() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${t('nav_dashboard')} · ${t('app_title')}`;
  }, [t]);
  return (
    <Box component="section" sx={{ maxWidth: 1400, mx: 'auto', width: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {t('nav_dashboard')}
      </Typography>
      <DashboardView />
    </Box>
  );
}

import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { DashboardView } from '../../features/dashboard/components/dashboard-view';
import { useCataloguePart } from '../../i18n';

/** /dashboard (administrators): storage, accounts, transfers, tasks, backups and licence at a glance. */
export function DashboardRoute() {
  return (
    <Suspense fallback={null}>
      <DashboardRoutePage />
    </Suspense>
  );
}

/** The page, once the texts it reads (catalogue part 'dashboard') are there. */
function DashboardRoutePage() {
  useCataloguePart('dashboard');
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

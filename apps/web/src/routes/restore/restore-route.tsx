import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { RestoreHistory } from '../../features/snapshots/components/restore-history';
import { RestoreWizard } from '../../features/snapshots/components/restore-wizard';
import { CatalogueParts } from '../../i18n/catalogue-parts-gate';

/** /restore (administrators): the restore wizard and the history of restores. `?run=` preselects a snapshot. */
export function RestoreRoute() {
  return (
    <Suspense fallback={null}>
      <CatalogueParts parts={['snapshot']}>
        <RestoreRoutePage />
      </CatalogueParts>
    </Suspense>
  );
}

/** The page itself, drawn once the texts it reads are there. */
function RestoreRoutePage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  useEffect(() => {
    document.title = `${t('nav_restore')} · ${t('app_title')}`;
  }, [t]);
  return (
    <Box component="section" sx={{ maxWidth: 1200, mx: 'auto', width: '100%', display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Box>
        <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
          {t('nav_restore')}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('restore_description')}
        </Typography>
      </Box>
      <RestoreWizard key={params.get('run') ?? ''} initialRun={params.get('run')} />
      <RestoreHistory />
    </Box>
  );
}

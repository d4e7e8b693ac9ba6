import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { TrashView } from '../../features/trash/components/trash-view';
import { CatalogueParts } from '../../i18n/catalogue-parts-gate';

/** /trash (administrators): what users trashed; restore, delete for good, empty, retention. */
export function TrashRoute() {
  return (
    <Suspense fallback={null}>
      <CatalogueParts parts={['trash']}>
        <TrashRoutePage />
      </CatalogueParts>
    </Suspense>
  );
}

/** The page itself, drawn once the texts it reads are there. */
function TrashRoutePage() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${t('nav_trash')} · ${t('app_title')}`;
  }, [t]);
  return (
    <Box component="section" sx={{ maxWidth: 1200, mx: 'auto', width: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {t('nav_trash')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('trash_description')}
      </Typography>
      <TrashView />
    </Box>
  );
}

import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { MyTrashView } from '../../features/trash/components/my-trash-view';

/** /my-trash (every account): what I deleted; restore it where it was. Only administrators delete for good. */
export function MyTrashRoute() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${t('nav_my_trash')} · ${t('app_title')}`;
  }, [t]);
  return (
    <Box component="section" sx={{ maxWidth: 1200, mx: 'auto', width: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {t('nav_my_trash')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('my_trash_description')}
      </Typography>
      <MyTrashView />
    </Box>
  );
}

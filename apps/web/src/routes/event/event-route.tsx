import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { ActivityLog } from '../../features/activity/components/activity-log';

/** /event (administrators): every user's activity, with filters and paging. */
export function EventRoute() {
  const { t } = useTranslation();
  useEffect(() => {
    document.title = `${t('nav_event')} · ${t('app_title')}`;
  }, [t]);
  return (
    <Box component="section" sx={{ maxWidth: 1200, mx: 'auto', width: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {t('nav_event')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('event_description')}
      </Typography>
      <ActivityLog />
    </Box>
  );
}

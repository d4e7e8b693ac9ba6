import { mdiClockOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFileActions } from '../../app/file-actions';
import { useRecent } from '../../features/files/api/get-recent';
import { EntryList } from '../../features/files/components/entry-list';

/** /recent: files the user opened, added or changed lately. */
export function RecentRoute() {
  const { t } = useTranslation();
  const recent = useRecent();
  const actions = useFileActions();
  useEffect(() => {
    document.title = `${t('nav_recent')} · ${t('app_title')}`;
  }, [t]);
  return (
    <Box component="section" sx={{ maxWidth: 960, mx: 'auto', width: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {t('nav_recent')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('recent_description')}
      </Typography>
      <Paper variant="outlined" sx={{ borderRadius: 2, p: 1 }}>
        <EntryList
          label={t('nav_recent')}
          entries={recent.data}
          loading={recent.isPending}
          error={recent.error}
          emptyText={t('recent_empty')}
          emptyIcon={mdiClockOutline}
          onOpen={actions.open}
          onDownload={(entry) => actions.download([entry])}
        />
      </Paper>
      {actions.overlay}
    </Box>
  );
}

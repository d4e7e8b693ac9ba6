import { mdiStarOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useFileActions } from '../../app/file-actions';
import { useStarred } from '../../features/files/api/get-starred';
import { EntryList } from '../../features/files/components/entry-list';

/** /starred: the files and folders the user starred. */
export function StarredRoute() {
  const { t } = useTranslation();
  const starred = useStarred();
  const actions = useFileActions();
  useEffect(() => {
    document.title = `${t('nav_starred')} · ${t('app_title')}`;
  }, [t]);
  return (
    <Box component="section" sx={{ maxWidth: 960, mx: 'auto', width: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {t('nav_starred')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('starred_description')}
      </Typography>
      <Paper variant="outlined" sx={{ borderRadius: 2, p: 1 }}>
        <EntryList
          label={t('nav_starred')}
          entries={starred.data}
          loading={starred.isPending}
          error={starred.error}
          emptyText={t('starred_empty')}
          emptyIcon={mdiStarOutline}
          onOpen={actions.open}
          onDownload={(entry) => actions.download([entry])}
        />
      </Paper>
      {actions.overlay}
    </Box>
  );
}

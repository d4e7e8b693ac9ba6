import { mdiClockOutline, mdiStarOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useFileActions } from '../../app/file-actions';
import { useRecent } from '../../features/files/api/get-recent';
import { useStarred } from '../../features/files/api/get-starred';
import { EntryList } from '../../features/files/components/entry-list';
import { useLocalePath } from '../../i18n/use-locale';

/** Entries each short list on Home shows. */
const HOME_LIST_LENGTH = 8;

function Section({ title, to, children }: { title: string; to: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Paper variant="outlined" component="section" aria-label={title} sx={{ borderRadius: 2, p: 1, minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'baseline', justifyContent: 'space-between', px: 1.5, pt: 1, pb: 0.5 }}>
        <Typography variant="subtitle1" component="h2" sx={{ fontWeight: 700 }}>
          {title}
        </Typography>
        <Link component={RouterLink} to={to} underline="hover" variant="body2">
          {t('see_all')}
        </Link>
      </Box>
      {children}
    </Paper>
  );
}

/** / and /home: the start page with the latest files and the starred ones. */
export function HomeRoute() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const recent = useRecent();
  const starred = useStarred();
  const actions = useFileActions();
  useEffect(() => {
    document.title = `${t('nav_home')} · ${t('app_title')}`;
  }, [t]);

  return (
    <Box sx={{ maxWidth: 1200, mx: 'auto', width: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {t('nav_home')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('home_description')}
      </Typography>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        <Section title={t('nav_recent')} to={localePath('/recent')}>
          <EntryList
            label={t('nav_recent')}
            entries={recent.data}
            loading={recent.isPending}
            error={recent.error}
            limit={HOME_LIST_LENGTH}
            emptyText={t('recent_empty')}
            emptyIcon={mdiClockOutline}
            onOpen={actions.open}
            onDownload={(entry) => actions.download([entry])}
          />
        </Section>
        <Section title={t('nav_starred')} to={localePath('/starred')}>
          <EntryList
            label={t('nav_starred')}
            entries={starred.data}
            loading={starred.isPending}
            error={starred.error}
            limit={HOME_LIST_LENGTH}
            emptyText={t('starred_empty')}
            emptyIcon={mdiStarOutline}
            onOpen={actions.open}
            onDownload={(entry) => actions.download([entry])}
          />
        </Section>
      </Box>
      {actions.overlay}
    </Box>
  );
}

import { mdiLinkVariant } from '@mdi/js';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { LoginLayout } from '../../app/layouts/login-layout';
import { MdiIcon } from '../../components/mdi-icon';
import { SharePage } from '../../features/shares/components/share-page';

/** /share/{key?}: a public share link, opened without signing in. */
export function ShareRoute() {
  const { t } = useTranslation();
  const key = useParams().key ?? '';

  useEffect(() => {
    document.title = `${t('share_title')} · ${t('app_title')}`;
  }, [t]);

  return (
    <LoginLayout maxWidth={720}>
      {key ? (
        <SharePage shareKey={key} />
      ) : (
        <Box sx={{ textAlign: 'center', py: 2 }}>
          <MdiIcon path={mdiLinkVariant} sx={{ fontSize: 48, color: 'text.secondary', opacity: 0.6, mb: 1 }} />
          <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 1 }}>
            {t('share_title')}
          </Typography>
          <Typography variant="body1" sx={{ color: 'text.secondary' }}>
            {t('share_description')}
          </Typography>
        </Box>
      )}
    </LoginLayout>
  );
}

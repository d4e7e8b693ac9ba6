import { mdiAccountQuestionOutline } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ApiError } from '../../api/client';
import { PageEmptyState } from '../../components/page-empty-state';
import { useProfile } from '../../features/profile/api/get-profile';
import { ProfileCard } from '../../features/profile/components/profile-card';
import { messageText } from '../../i18n/keys';

/** /user/{email}: a user's profile, opened by clicking an avatar. */
export function UserRoute() {
  const { t } = useTranslation();
  const email = useParams().email ?? '';
  const profile = useProfile(email);
  const name = profile.data?.name;

  useEffect(() => {
    if (name) document.title = `${name} · ${t('app_title')}`;
  }, [name, t]);

  let body;
  if (profile.isPending) {
    body = (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 8 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  } else if (profile.isError) {
    body = (
      <Alert
        severity="error"
        action={
          <Button color="inherit" size="small" onClick={() => void profile.refetch()}>
            {t('retry')}
          </Button>
        }
      >
        {messageText(t, profile.error instanceof ApiError ? profile.error.messageKey : null)}
      </Alert>
    );
  } else if (!profile.data) {
    return <PageEmptyState title={t('user_not_found')} description={email} icon={mdiAccountQuestionOutline} />;
  } else {
    body = <ProfileCard profile={profile.data} />;
  }
  return <Box sx={{ maxWidth: 880, mx: 'auto', width: '100%' }}>{body}</Box>;
}

import { mdiAccountCircleOutline } from '@mdi/js';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageEmptyState } from '../../components/page-empty-state';

/** /user/{email}: a user's profile, opened by clicking an avatar. */
export function UserRoute() {
  const { t } = useTranslation();
  const email = useParams().email ?? '';
  return (
    <PageEmptyState title={t('profile')} description={t('user_description')} icon={mdiAccountCircleOutline}>
      <Typography variant="body1" sx={{ color: 'text.secondary' }}>
        {email}
      </Typography>
    </PageEmptyState>
  );
}

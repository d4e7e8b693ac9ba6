import { mdiHomeOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** / and /home: the start page. */
export function HomeRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_home')} description={t('home_description')} icon={mdiHomeOutline} />;
}

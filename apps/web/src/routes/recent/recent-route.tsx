import { mdiClockOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** /recent: recently used documents. */
export function RecentRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_recent')} description={t('recent_description')} icon={mdiClockOutline} />;
}

import { mdiViewDashboardOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** /dashboard (administrators): overview of the system. */
export function DashboardRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_dashboard')} description={t('dashboard_description')} icon={mdiViewDashboardOutline} />;
}

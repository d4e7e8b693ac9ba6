import { mdiBookOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** /manual: the manual. */
export function ManualRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_manual')} description={t('manual_description')} icon={mdiBookOutline} />;
}

import { mdiStarOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** /starred: documents the user starred. */
export function StarredRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_starred')} description={t('starred_description')} icon={mdiStarOutline} />;
}

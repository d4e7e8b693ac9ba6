import { mdiBookOpenPageVariantOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** /guide: the user guide. */
export function GuideRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_guide')} description={t('guide_description')} icon={mdiBookOpenPageVariantOutline} />;
}

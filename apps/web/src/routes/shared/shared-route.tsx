import { mdiShareVariantOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** /shared: documents shared with or by the user. */
export function SharedRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_shared')} description={t('shared_description')} icon={mdiShareVariantOutline} />;
}

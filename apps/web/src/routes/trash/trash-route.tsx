import { mdiTrashCanOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** /trash (administrators): deleted items. */
export function TrashRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_trash')} description={t('trash_description')} icon={mdiTrashCanOutline} />;
}

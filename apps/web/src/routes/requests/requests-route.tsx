import { mdiClipboardCheckOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** /requests: download and share-link requests for secure folders. */
export function RequestsRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_requests')} description={t('requests_description')} icon={mdiClipboardCheckOutline} />;
}

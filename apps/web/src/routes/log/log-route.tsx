import { mdiTextBoxSearchOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** /log (administrators): the system and API log. */
export function LogRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_log')} description={t('log_description')} icon={mdiTextBoxSearchOutline} />;
}

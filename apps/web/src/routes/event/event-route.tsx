import { mdiTimelineTextOutline } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { PageEmptyState } from '../../components/page-empty-state';

/** /event (administrators): the activity log. */
export function EventRoute() {
  const { t } = useTranslation();
  return <PageEmptyState title={t('nav_event')} description={t('event_description')} icon={mdiTimelineTextOutline} />;
}

import { SETTINGS_PAGE_SIZE } from '@bogwan/contracts';
import { useTranslation } from 'react-i18next';
import { PagedTable } from '../../../components/paged-table';
import { useLocale } from '../../../i18n/use-locale';
import { useAuth } from '../../../state/auth';
import { useEvents } from '../api/get-events';
import { activityColumns } from './activity-columns';
import { usePaging } from '../../../components/use-paging';

/** Settings → Activity: the user's own activity, paged by the server. */
export function ActivitySection() {
  const { t } = useTranslation();
  const locale = useLocale();
  const paging = usePaging(SETTINGS_PAGE_SIZE);
  // The own id always: without one an administrator would get everyone's events.
  const userId = useAuth()?.user._id ?? '';
  const events = useEvents({ userId, skip: paging.page * paging.rowsPerPage, limit: paging.rowsPerPage });
  return (
    <PagedTable
      label={t('settings_activity')}
      columns={activityColumns(t, locale)}
      rows={events.data?.items ?? []}
      rowKey={(row) => row._id}
      total={events.data?.total ?? 0}
      {...paging.props}
      loading={events.isPending}
      error={events.isError}
      empty={t('no_data')}
    />
  );
}

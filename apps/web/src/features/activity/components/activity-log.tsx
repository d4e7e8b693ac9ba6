import { mdiRefresh } from '@mdi/js';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import Tooltip from '@mui/material/Tooltip';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon';
import { useLocale } from '../../../i18n/use-locale';
import { useEvents } from '../api/get-events';
import { filterFromParams, filterToParams, filterToQuery, isFiltered } from '../lib/audit-filter';
import { auditColumns } from './audit-columns';
import { AuditFilterBar } from './audit-filter-bar';
import { AuditTable } from './audit-table';
import { ExportButtons } from './export-buttons';

/**
 * The administrators' activity log (/event): everyone's records, filtered by person, path,
 * actions, outcome and days. The filter lives in the page's URL, so a view can be bookmarked
 * and sent; pages load by cursor.
 */
export function ActivityLog() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  const filter = useMemo(() => filterFromParams(params), [params]);
  const query = useMemo(() => filterToQuery(filter), [filter]);
  const events = useEvents(query);
  const columns = useMemo(() => auditColumns(t, locale, { person: true }), [t, locale]);

  return (
    <Paper variant="outlined" sx={{ borderRadius: 2, p: { xs: 1.5, sm: 2 }, minWidth: 0 }}>
      <AuditFilterBar
        filter={filter}
        person
        onChange={(next) => setParams(filterToParams(next, params), { replace: true })}
        actions={
          <>
            <ExportButtons filter={query} />
            <Tooltip title={t('refresh')}>
              <IconButton aria-label={t('refresh')} onClick={() => void events.refetch()}>
                <MdiIcon path={mdiRefresh} />
              </IconButton>
            </Tooltip>
          </>
        }
      />
      <AuditTable label={t('nav_event')} columns={columns} query={events} empty={isFiltered(filter) ? t('no_search_result') : t('no_data')} />
    </Paper>
  );
}

import { mdiRefresh } from '@mdi/js';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import { useEffect, useMemo, useRef, useState } from 'react';
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
import { LazyTooltip } from '../../../components/lazy-tooltip';

/**
 * The administrators' activity log (/event): everyone's records, filtered by person, path,
 * actions, outcome and days. The filter lives in the page's URL, so a view can be bookmarked
 * and sent; pages load by cursor.
 */
export function ActivityLog() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [params, setParams] = useSearchParams();
  // The filter is state mirrored into the URL (not read back from it on every edit), so two
  // edits before the address has changed both land; an address changed from outside (a
  // link, back and forward) replaces it.
  const [filter, setFilter] = useState(() => filterFromParams(params));
  const address = params.toString();
  const written = useRef(address);
  useEffect(() => {
    if (address === written.current) return;
    written.current = address;
    setFilter(filterFromParams(new URLSearchParams(address)));
  }, [address]);
  useEffect(() => {
    const next = filterToParams(filter, new URLSearchParams(written.current));
    if (next.toString() === written.current) return;
    written.current = next.toString();
    setParams(next, { replace: true });
    // Only a change of the filter writes the address.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [filter]);
  const query = useMemo(() => filterToQuery(filter), [filter]);
  const events = useEvents(query);
  const columns = useMemo(() => auditColumns(t, locale, { person: true }), [t, locale]);
  // An address that names a person without how to show them (typed or linked by hand): their
  // name and e-mail from the rows, which are all theirs.
  const actor = events.data?.pages[0]?.items.find((row) => row.actor.accountId === filter.actor)?.actor;
  const shown =
    filter.actor && !filter.actorLabel && actor?.name ? { ...filter, actorLabel: actor.email ? `${actor.name} · ${actor.email}` : actor.name } : filter;

  return (
    <Paper variant="outlined" sx={{ borderRadius: 2, p: { xs: 1.5, sm: 2 }, minWidth: 0 }}>
      <AuditFilterBar
        filter={shown}
        person
        onChange={(patch) => setFilter((current) => ({ ...current, ...patch }))}
        actions={
          <>
            <ExportButtons filter={query} />
            <LazyTooltip title={t('refresh')}>
              <IconButton aria-label={t('refresh')} onClick={() => void events.refetch()}>
                <MdiIcon path={mdiRefresh} />
              </IconButton>
            </LazyTooltip>
          </>
        }
      />
      <AuditTable label={t('nav_event')} columns={columns} query={events} empty={isFiltered(filter) ? t('no_search_result') : t('no_data')} />
    </Paper>
  );
}

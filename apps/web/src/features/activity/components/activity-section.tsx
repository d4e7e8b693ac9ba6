import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../i18n/use-locale';
import { useAuth } from '../../../state/auth';
import { useEvents } from '../api/get-events';
import { EMPTY_FILTER, filterToQuery, isFiltered, type AuditViewFilter } from '../lib/audit-filter';
import { auditColumns } from './audit-columns';
import { AuditFilterBar } from './audit-filter-bar';
import { AuditTable } from './audit-table';
import { ExportButtons } from './export-buttons';

/**
 * Settings → Activity: the account's own records (the server answers nothing else to it,
 * whatever its role), with the same filters but the person, and their export.
 */
export function ActivitySection() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [filter, setFilter] = useState<AuditViewFilter>(EMPTY_FILTER);
  // Always the own account: without it an administrator would be answered everyone's records.
  const me = useAuth()?.user._id ?? '';
  const query = useMemo(() => ({ ...filterToQuery(filter), actor: me }), [filter, me]);
  const events = useEvents(query);
  const columns = useMemo(() => auditColumns(t, locale, { person: false }), [t, locale]);
  return (
    <>
      <AuditFilterBar
        filter={filter}
        person={false}
        onChange={(patch) => setFilter((current) => ({ ...current, ...patch }))}
        actions={<ExportButtons filter={query} />}
      />
      <AuditTable label={t('settings_activity')} columns={columns} query={events} empty={isFiltered(filter) ? t('no_search_result') : t('no_data')} />
    </>
  );
}

import { ACCESS_LOG_METHODS, SETTINGS_PAGE_SIZE } from '@bogwan/contracts';
import { mdiDownload, mdiMagnify, mdiRefresh } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import FormControl from '@mui/material/FormControl';
import InputLabel from '@mui/material/InputLabel';
import type { InputBaseComponentProps } from '@mui/material/InputBase';
import OutlinedInput from '@mui/material/OutlinedInput';
import { useId, useMemo, useState, type ElementType } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { PagedTable } from '../../../components/paged-table';
import { OutlinedField } from '../../../components/outlined-field';
import { usePaging } from '../../../components/use-paging';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useExportAccessLog } from '../api/export-access-log';
import { useAccessLog } from '../api/get-access-log';
import { EMPTY_ACCESS_LOG_FORM, isValidStatus, toAccessLogFilter, type AccessLogForm } from '../lib/access-log-filter';
import { accessLogColumns } from './access-log-columns';
import { LazyTooltip } from '../../../components/lazy-tooltip';

// OutlinedInput drawing a native <select> (its options passed as the element's children).
const NATIVE_SELECT = 'select' as unknown as ElementType<InputBaseComponentProps>;

/**
 * The system log: filters (ip, method, url, status, date range), a page of entries from
 * the server, and export of everything that matches to `system_log_data.csv`.
 */
export function AccessLogTable() {
  const { t } = useTranslation();
  const locale = useLocale();
  const [form, setForm] = useState<AccessLogForm>(EMPTY_ACCESS_LOG_FORM);
  const [applied, setApplied] = useState<AccessLogForm>(EMPTY_ACCESS_LOG_FORM);
  const paging = usePaging(SETTINGS_PAGE_SIZE);
  const filter = useMemo(() => toAccessLogFilter(applied), [applied]);
  const log = useAccessLog({ filter, skip: paging.page * paging.rowsPerPage, limit: paging.rowsPerPage });
  const exporter = useExportAccessLog();
  const methodId = useId();
  const statusValid = isValidStatus(form.status);
  const filtered = Object.values(applied).some(Boolean);

  const apply = (next: AccessLogForm) => {
    setForm(next);
    setApplied(next);
    paging.setPage(0);
  };
  /** Selects and dates apply at once; text fields when the form is submitted. */
  const change = (field: keyof AccessLogForm, immediate: boolean) => (event: { target: { value: string } }) => {
    const next = { ...form, [field]: event.target.value };
    if (immediate) apply(next);
    else setForm(next);
  };

  const runExport = () =>
    exporter.mutate(filter, {
      onSuccess: () => notify(t('log_export_complete_message')),
      onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
    });

  return (
    <Box>
      <Box
        component="form"
        role="search"
        aria-label={t('log_filters')}
        onSubmit={(event) => {
          event.preventDefault();
          if (statusValid) apply(form);
        }}
        sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mb: 1.5 }}
      >
        <OutlinedField size="small" label={t('log_ip')} value={form.ip} onChange={change('ip', false)} inputProps={{ maxLength: 64 }} sx={{ width: 150 }} />
        {/* A native select in MUI's outline: the page then needs none of MUI's Select and Menu code. */}
        <FormControl size="small" sx={{ width: 120 }}>
          <InputLabel htmlFor={methodId} shrink>
            {t('log_method')}
          </InputLabel>
          <OutlinedInput
            notched
            label={t('log_method')}
            id={methodId}
            value={form.method}
            onChange={change('method', true)}
            inputComponent={NATIVE_SELECT}
            inputProps={{
              children: [
                <option key="" value="">
                  {t('log_all_methods')}
                </option>,
                ...ACCESS_LOG_METHODS.map((method) => (
                  <option key={method} value={method}>
                    {method}
                  </option>
                )),
              ],
            }}
            sx={{ '& select': { cursor: 'pointer' } }}
          />
        </FormControl>
        <OutlinedField size="small" label={t('log_url')} value={form.url} onChange={change('url', false)} inputProps={{ maxLength: 512 }} sx={{ width: 200 }} />
        <OutlinedField
          size="small"
          label={t('log_status')}
          placeholder="404, 5xx"
          value={form.status}
          onChange={change('status', false)}
          error={!statusValid}
          helperText={statusValid ? undefined : t('log_status_hint')}
          inputProps={{ maxLength: 3 }}
          sx={{ width: 110 }}
        />
        <OutlinedField
          type="date"
          size="small"
          label={t('activity_from')}
          value={form.from}
          onChange={change('from', true)}
          shrink
          inputProps={{ max: form.to || undefined }}
        />
        <OutlinedField
          type="date"
          size="small"
          label={t('activity_to')}
          value={form.to}
          onChange={change('to', true)}
          shrink
          inputProps={{ min: form.from || undefined }}
        />
        <Button type="submit" variant="outlined" startIcon={<MdiIcon path={mdiMagnify} fontSize="small" />} disabled={!statusValid}>
          {t('log_search')}
        </Button>
        {filtered && <Button onClick={() => apply(EMPTY_ACCESS_LOG_FORM)}>{t('activity_clear_filters')}</Button>}
        <Box sx={{ flexGrow: 1 }} />
        <Button variant="contained" startIcon={<MdiIcon path={mdiDownload} fontSize="small" />} onClick={runExport} disabled={exporter.isPending}>
          {t('log_export')}
        </Button>
        <LazyTooltip title={t('refresh')}>
          <IconButton aria-label={t('refresh')} onClick={() => void log.refetch()}>
            <MdiIcon path={mdiRefresh} />
          </IconButton>
        </LazyTooltip>
      </Box>
      <PagedTable
        label={t('nav_log')}
        columns={accessLogColumns(t, locale)}
        rows={log.data?.items ?? []}
        rowKey={(row) => row._id}
        total={log.data?.total ?? 0}
        {...paging.props}
        loading={log.isPending}
        error={log.isError}
        empty={filtered ? t('no_search_result') : t('no_data')}
      />
    </Box>
  );
}

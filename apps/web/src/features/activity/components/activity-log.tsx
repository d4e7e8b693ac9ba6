import { ACTIVITY_FETCH_LIMIT } from '@bogwan/contracts';
import { mdiChevronLeft, mdiChevronRight, mdiRefresh } from '@mdi/js';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import MenuItem from '@mui/material/MenuItem';
import Paper from '@mui/material/Paper';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { PagedTable } from '../../../components/paged-table';
import { useLocale } from '../../../i18n/use-locale';
import { useAuth } from '../../../state/auth';
import { useEvents } from '../api/get-events';
import { distinct, filterActivities, type ActivityFilter } from '../lib/activity-filter';
import { activityColumns, serviceLabel } from './activity-columns';
import { usePaging } from '../../../components/use-paging';

const DEFAULT_PAGE_SIZE = 20;

/**
 * The administrators' activity log. The server pages by user only; it answers up to
 * ACTIVITY_FETCH_LIMIT events at a time, and the service and date filters work on that
 * window, which the user moves with 'older' and 'newer'.
 */
export function ActivityLog() {
  const { t } = useTranslation();
  const locale = useLocale();
  const me = useAuth()?.user;
  const [userId, setUserId] = useState('');
  const [userInput, setUserInput] = useState('');
  const [filter, setFilter] = useState<ActivityFilter>({ service: '', from: '', to: '' });
  const [windowIndex, setWindowIndex] = useState(0);
  const paging = usePaging(DEFAULT_PAGE_SIZE);
  const { setPage } = paging;
  const events = useEvents({ userId: userId || undefined, skip: windowIndex * ACTIVITY_FETCH_LIMIT });
  const items = useMemo(() => events.data?.items ?? [], [events.data]);
  const total = events.data?.total ?? 0;
  const filtered = useMemo(() => filterActivities(items, filter), [items, filter]);
  const services = useMemo(() => distinct([...items.map((item) => item.service), filter.service]), [items, filter.service]);
  const userIds = useMemo(() => distinct([me?._id ?? null, ...items.map((item) => item.userId)]), [items, me]);
  const userLabel = (id: string | null) => (!id ? t('activity_no_user') : id === me?._id ? `${me.name} (${t('activity_me')})` : id);
  const windowed = total > ACTIVITY_FETCH_LIMIT;

  const update = (patch: Partial<ActivityFilter>) => {
    setFilter({ ...filter, ...patch });
    setPage(0);
  };
  const chooseUser = (id: string) => {
    setUserId(id.trim());
    setWindowIndex(0);
    setPage(0);
  };

  return (
    <Paper variant="outlined" sx={{ borderRadius: 2, p: 2 }}>
      <Box component="form" role="search" aria-label={t('activity_filters')} onSubmit={(event) => {
        event.preventDefault();
        chooseUser(userInput);
      }} sx={{ display: 'flex', flexWrap: 'wrap', gap: 1.5, alignItems: 'center', mb: 1.5 }}>
        <Autocomplete
          freeSolo
          options={userIds}
          getOptionLabel={(option) => option}
          renderOption={({ key, ...props }, option) => (
            <li key={key} {...props}>
              {userLabel(option)}
            </li>
          )}
          inputValue={userInput}
          onInputChange={(_event, value, reason) => {
            setUserInput(value);
            if (reason === 'clear') chooseUser('');
          }}
          onChange={(_event, value) => chooseUser(typeof value === 'string' ? value : '')}
          sx={{ width: 300 }}
          renderInput={(params) => (
            <TextField {...params} size="small" label={t('activity_filter_user')} placeholder={t('activity_filter_user_hint')} />
          )}
        />
        <TextField
          select
          size="small"
          label={t('column_type')}
          value={filter.service}
          onChange={(event) => update({ service: event.target.value })}
          slotProps={{ inputLabel: { shrink: true }, select: { displayEmpty: true } }}
          sx={{ minWidth: 140 }}
        >
          <MenuItem value="">{t('activity_all_services')}</MenuItem>
          {services.map((service) => (
            <MenuItem key={service} value={service}>
              {serviceLabel(t, service)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          type="date"
          size="small"
          label={t('activity_from')}
          value={filter.from}
          onChange={(event) => update({ from: event.target.value })}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: filter.to || undefined } }}
        />
        <TextField
          type="date"
          size="small"
          label={t('activity_to')}
          value={filter.to}
          onChange={(event) => update({ to: event.target.value })}
          slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: filter.from || undefined } }}
        />
        {(filter.service || filter.from || filter.to || userId) && (
          <Button
            size="small"
            onClick={() => {
              setFilter({ service: '', from: '', to: '' });
              setUserInput('');
              chooseUser('');
            }}
          >
            {t('activity_clear_filters')}
          </Button>
        )}
        <Box sx={{ flexGrow: 1 }} />
        <Tooltip title={t('refresh')}>
          <IconButton aria-label={t('refresh')} onClick={() => void events.refetch()}>
            <MdiIcon path={mdiRefresh} />
          </IconButton>
        </Tooltip>
      </Box>
      {windowed && (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1, flexWrap: 'wrap' }}>
          <Typography variant="body2" sx={{ color: 'text.secondary', flexGrow: 1 }}>
            {t('activity_window', {
              from: windowIndex * ACTIVITY_FETCH_LIMIT + 1,
              to: Math.min(total, (windowIndex + 1) * ACTIVITY_FETCH_LIMIT),
              total,
            })}
          </Typography>
          <Button
            size="small"
            startIcon={<MdiIcon path={mdiChevronLeft} fontSize="small" />}
            disabled={windowIndex === 0}
            onClick={() => {
              setWindowIndex(windowIndex - 1);
              setPage(0);
            }}
          >
            {t('activity_newer')}
          </Button>
          <Button
            size="small"
            endIcon={<MdiIcon path={mdiChevronRight} fontSize="small" />}
            disabled={(windowIndex + 1) * ACTIVITY_FETCH_LIMIT >= total}
            onClick={() => {
              setWindowIndex(windowIndex + 1);
              setPage(0);
            }}
          >
            {t('activity_older')}
          </Button>
        </Box>
      )}
      <PagedTable
        label={t('nav_event')}
        columns={activityColumns(t, locale, (row) => userLabel(row.userId))}
        rows={paging.slice(filtered)}
        rowKey={(row) => row._id}
        total={filtered.length}
        {...paging.props}
        loading={events.isPending}
        error={events.isError}
        empty={items.length > 0 ? t('no_search_result') : t('no_data')}
      />
    </Paper>
  );
}

import { PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, PAGE_SIZE_MIN, SEARCH_MAX_LENGTH } from '@bogwan/contracts';
import { mdiDotsVertical, mdiMagnify, mdiRefresh } from '@mdi/js';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import InputBase from '@mui/material/InputBase';
import Pagination from '@mui/material/Pagination';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { LazyTooltip } from './lazy-tooltip';
import type { Theme } from '@mui/material/styles';
import Typography from '@mui/material/Typography';
import { lazy, useId, useMemo, useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { k } from '../i18n/keys';
import { Deferred } from './deferred';
import { MdiIcon } from './mdi-icon';

// The row menu and the raw-data dialog load their code when first opened.
const DataRowMenu = lazy(() => import('./data-row-menu').then((m) => ({ default: m.DataRowMenu })));
const RawDataDialog = lazy(() => import('./data-row-menu').then((m) => ({ default: m.RawDataDialog })));

export interface DataColumn<Row> {
  id: string;
  /** Header text, already translated. */
  label: string;
  width?: number | string;
  align?: 'left' | 'center' | 'right';
  render: (row: Row) => ReactNode;
}

export interface DataRowAction<Row> {
  id: string;
  /** Already translated. */
  label: string;
  icon: string;
  /** Hidden for rows it does not apply to. */
  visible?: (row: Row) => boolean;
  danger?: boolean;
  run: (row: Row) => void;
}

export interface DataTableProps<Row> {
  label: string;
  columns: DataColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** The text a keyword is looked for in (case-insensitive). */
  searchText: (row: Row) => string;
  actions?: DataRowAction<Row>[];
  onRefresh?: () => void;
  loading?: boolean;
  error?: boolean;
  /** Rendered in the toolbar, given the selected rows. */
  toolbar?: (selected: Row[]) => ReactNode;
  /** A click on a row (outside its checkbox and buttons) opens it. */
  onRowClick?: (row: Row) => void;
}

/** Clamps a typed page size into the spec's range. */
export function clampPageSize(value: number): number {
  if (!Number.isFinite(value)) return PAGE_SIZE_DEFAULT;
  return Math.min(PAGE_SIZE_MAX, Math.max(PAGE_SIZE_MIN, Math.round(value)));
}

/**
 * The spec's data table: keyword search (at most 50 characters), refresh, row select, a
 * context menu per row (right click or the row's menu button) with a view-raw dialog,
 * pages with a page selector, previous/next and a page-size input (5 to 50, default 10),
 * and the empty states 'no data' and 'no search result'.
 */
export function DataTable<Row>(props: DataTableProps<Row>) {
  const { t } = useTranslation();
  const { columns, rows, rowKey, actions = [] } = props;
  const [keyword, setKeyword] = useState('');
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE_DEFAULT);
  const [sizeInput, setSizeInput] = useState(String(PAGE_SIZE_DEFAULT));
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [menu, setMenu] = useState<{ row: Row; x: number; y: number } | null>(null);
  const [raw, setRaw] = useState<Row | null>(null);
  const sizeId = useId();

  const filtered = useMemo(() => {
    const needle = keyword.trim().toLowerCase();
    return needle ? rows.filter((row) => props.searchText(row).toLowerCase().includes(needle)) : rows;
  }, [rows, keyword, props]);
  const pages = Math.max(1, Math.ceil(filtered.length / pageSize));
  const current = Math.min(page, pages);
  const visible = filtered.slice((current - 1) * pageSize, current * pageSize);
  const selectedRows = rows.filter((row) => selected.has(rowKey(row)));
  const allOnPage = visible.length > 0 && visible.every((row) => selected.has(rowKey(row)));

  const toggle = (key: string) =>
    setSelected((before) => {
      const next = new Set(before);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  const togglePage = () =>
    setSelected((before) => {
      const next = new Set(before);
      for (const row of visible) {
        if (allOnPage) next.delete(rowKey(row));
        else next.add(rowKey(row));
      }
      return next;
    });
  const openMenu = (event: MouseEvent, row: Row) => {
    event.preventDefault();
    setMenu({ row, x: event.clientX, y: event.clientY });
  };
  const applySize = () => {
    const size = clampPageSize(Number(sizeInput));
    setSizeInput(String(size));
    setPageSize(size);
    setPage(1);
  };

  let body: ReactNode;
  if (props.loading || props.error || visible.length === 0) {
    const message = props.error ? t('request_error_message') : rows.length > 0 ? t('no_search_result') : t('no_data');
    body = (
      <TableRow>
        <TableCell colSpan={columns.length + 2} sx={{ py: 6, textAlign: 'center', color: props.error ? 'error.main' : 'text.secondary' }}>
          {props.loading ? <CircularProgress size={24} aria-label={t('loading')} /> : <Typography variant="body2">{message}</Typography>}
        </TableCell>
      </TableRow>
    );
  } else {
    body = visible.map((row) => {
      const key = rowKey(row);
      return (
        <TableRow
          key={key}
          hover
          selected={selected.has(key)}
          onContextMenu={(event) => openMenu(event, row)}
          onClick={
            props.onRowClick &&
            ((event) => {
              if (!(event.target as Element).closest('button, a, input, label')) props.onRowClick?.(row);
            })
          }
          sx={props.onRowClick ? { cursor: 'pointer' } : undefined}
          data-row-key={key}
        >
          <TableCell padding="checkbox">
            <Checkbox size="small" checked={selected.has(key)} onChange={() => toggle(key)} slotProps={{ input: { 'aria-label': t('select_row') } }} />
          </TableCell>
          {columns.map((column) => (
            <TableCell key={column.id} align={column.align} sx={{ width: column.width }}>
              {column.render(row)}
            </TableCell>
          ))}
          <TableCell padding="checkbox" align="right" sx={STICKY_ACTIONS_SX}>
            <IconButton size="small" aria-label={t('row_actions')} onClick={(event) => openMenu(event, row)}>
              <MdiIcon path={mdiDotsVertical} fontSize="small" />
            </IconButton>
          </TableCell>
        </TableRow>
      );
    });
  }

  return (
    <Box>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        {/* A bordered InputBase (the shell's input), not a TextField: the page loads no more input code for it. */}
        <InputBase
          value={keyword}
          onChange={(event) => {
            setKeyword(event.target.value.slice(0, SEARCH_MAX_LENGTH));
            setPage(1);
          }}
          placeholder={t('search_placeholder')}
          inputProps={{ maxLength: SEARCH_MAX_LENGTH, 'aria-label': t('table_search') }}
          startAdornment={<MdiIcon path={mdiMagnify} fontSize="small" sx={{ color: 'action.active', mr: 1 }} />}
          sx={{ ...OUTLINED_SX, width: { xs: '100%', sm: 260 } }}
        />
        {props.onRefresh && (
          <LazyTooltip title={t('refresh')}>
            <IconButton aria-label={t('refresh')} onClick={props.onRefresh}>
              <MdiIcon path={mdiRefresh} />
            </IconButton>
          </LazyTooltip>
        )}
        <Box sx={{ flexGrow: 1 }} />
        {selectedRows.length > 0 && (
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('selected_count', { n: selectedRows.length })}
          </Typography>
        )}
        {props.toolbar?.(selectedRows)}
      </Box>
      <TableContainer>
        <Table size="small" aria-label={props.label}>
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  size="small"
                  checked={allOnPage}
                  indeterminate={!allOnPage && visible.some((row) => selected.has(rowKey(row)))}
                  onChange={togglePage}
                  slotProps={{ input: { 'aria-label': t('select_page') } }}
                />
              </TableCell>
              {columns.map((column) => (
                <TableCell key={column.id} align={column.align} sx={{ width: column.width, fontWeight: 700, whiteSpace: 'nowrap' }}>
                  {column.label}
                </TableCell>
              ))}
              <TableCell padding="checkbox" sx={STICKY_ACTIONS_SX} />
            </TableRow>
          </TableHead>
          <TableBody>{body}</TableBody>
        </Table>
      </TableContainer>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', justifyContent: 'flex-end', gap: 2, mt: 1.5 }}>
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
          <Typography variant="body2" component="label" htmlFor={sizeId}>
            {t('rows_per_page')}
          </Typography>
          <InputBase
            id={sizeId}
            type="number"
            value={sizeInput}
            onChange={(event) => setSizeInput(event.target.value)}
            onBlur={applySize}
            onKeyDown={(event) => {
              if (event.key === 'Enter') applySize();
            }}
            inputProps={{ min: PAGE_SIZE_MIN, max: PAGE_SIZE_MAX }}
            sx={{ ...OUTLINED_SX, width: 72 }}
          />
        </Box>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('rows_displayed', {
            from: filtered.length === 0 ? 0 : (current - 1) * pageSize + 1,
            to: Math.min(filtered.length, current * pageSize),
            count: filtered.length,
          })}
        </Typography>
        <Pagination
          count={pages}
          page={current}
          onChange={(_event, value) => setPage(value)}
          showFirstButton
          showLastButton
          size="small"
          getItemAriaLabel={(type, value) => (type === 'page' ? t('page_number', { n: value }) : t(PAGE_BUTTON_LABELS[type]))}
        />
      </Box>

      <Deferred open={menu !== null}>
        <DataRowMenu
          position={menu && { top: menu.y, left: menu.x }}
          actions={menu ? actions.filter((action) => action.visible?.(menu.row) ?? true) : []}
          onClose={() => setMenu(null)}
          onAction={(id) => {
            const action = actions.find((candidate) => candidate.id === id);
            if (!menu || !action) return;
            const row = menu.row;
            setMenu(null);
            action.run(row);
          }}
          onViewRaw={() => {
            if (!menu) return;
            setRaw(menu.row);
            setMenu(null);
          }}
        />
      </Deferred>

      <Deferred open={raw !== null}>
        <RawDataDialog data={raw} onClose={() => setRaw(null)} />
      </Deferred>
    </Box>
  );
}

// A small input with the outline of MUI's outlined fields.
const OUTLINED_SX = {
  height: 40,
  px: 1.5,
  borderRadius: 1,
  border: 1,
  borderColor: 'action.disabled',
  '&:hover': { borderColor: 'text.primary' },
  '&.Mui-focused': { borderColor: 'primary.main', boxShadow: (theme: Theme) => `inset 0 0 0 1px ${theme.palette.primary.main}` },
} as const;

// A wide table scrolls inside its own box; the row menu stays at its right edge, in view.
const STICKY_ACTIONS_SX = { position: 'sticky', right: 0, bgcolor: 'background.paper', zIndex: 1 } as const;

const PAGE_BUTTON_LABELS = {
  first: k('page_first'),
  last: k('page_last'),
  next: k('page_next'),
  previous: k('page_previous'),
  'start-ellipsis': k('page_more'),
  'end-ellipsis': k('page_more'),
} as const;

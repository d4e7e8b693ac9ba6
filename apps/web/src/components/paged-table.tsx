import { mdiChevronLeft, mdiChevronRight } from '@mdi/js';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useEffect, useId, useRef, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { k } from '../i18n/keys';
import { LazyTooltip } from './lazy-tooltip';
import { MdiIcon } from './mdi-icon';
import { isOfferedPageSize, pageSizeOptions } from './page-size-options';

export interface PagedColumn<Row> {
  id: string;
  /** Header text, already translated. */
  label: string;
  width?: number | string;
  align?: 'left' | 'center' | 'right';
  render: (row: Row) => ReactNode;
}

export interface PagedTableProps<Row> {
  label: string;
  columns: PagedColumn<Row>[];
  rows: Row[];
  rowKey: (row: Row) => string;
  /** All rows across pages. */
  total: number;
  page: number;
  rowsPerPage: number;
  onPageChange: (page: number) => void;
  onRowsPerPageChange: (rowsPerPage: number) => void;
  loading?: boolean;
  error?: boolean;
  /** Shown when there are no rows, already translated. */
  empty: string;
  /** Right-click on a row (its context menu). */
  onRowContextMenu?: (row: Row, event: MouseEvent<HTMLTableRowElement>) => void;
}

/** A table with pagination below it, for lists the server or the page already holds. */
export function PagedTable<Row>(props: PagedTableProps<Row>) {
  const { t } = useTranslation();
  const { columns, rows, loading, error } = props;
  let body: ReactNode;
  if (loading || error || rows.length === 0) {
    body = (
      <TableRow>
        <TableCell colSpan={columns.length} sx={{ py: 6, textAlign: 'center', color: error ? 'error.main' : 'text.secondary' }}>
          {loading ? (
            <CircularProgress size={24} aria-label={t('loading')} />
          ) : (
            <Typography variant="body2">{error ? t('request_error_message') : props.empty}</Typography>
          )}
        </TableCell>
      </TableRow>
    );
  } else {
    body = rows.map((row) => (
      <TableRow
        key={props.rowKey(row)}
        hover
        onContextMenu={
          props.onRowContextMenu
            ? (event) => {
                event.preventDefault();
                props.onRowContextMenu?.(row, event);
              }
            : undefined
        }
      >
        {columns.map((column) => (
          <TableCell key={column.id} align={column.align} sx={{ width: column.width }}>
            {column.render(row)}
          </TableCell>
        ))}
      </TableRow>
    ));
  }
  return (
    <Box>
      <TableContainer>
        <Table size="small" aria-label={props.label}>
          <TableHead>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column.id} align={column.align} sx={{ width: column.width, fontWeight: 700, whiteSpace: 'nowrap' }}>
                  {column.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>{body}</TableBody>
        </Table>
      </TableContainer>
      <Pagination
        total={props.total}
        page={props.page}
        rowsPerPage={props.rowsPerPage}
        onPageChange={props.onPageChange}
        onRowsPerPageChange={props.onRowsPerPageChange}
      />
    </Box>
  );
}

const PAGE_BUTTON_LABELS = {
  next: k('page_next'),
  previous: k('page_previous'),
} as const;

/**
 * The pager under the table, laid out as MUI's TablePagination: page size, the rows shown,
 * previous and next. The page size is a native select (a size that is not one of the spec's
 * choices, the 15-row default of settings tables, is there only so the select can show it:
 * hidden and not selectable) and the buttons are icon buttons whose tooltips load on first
 * hover or focus, so a paged table brings none of MUI's Select, Menu, Popover or Tooltip code
 * to its page.
 */
function Pagination(props: Pick<PagedTableProps<unknown>, 'total' | 'page' | 'rowsPerPage' | 'onPageChange' | 'onRowsPerPageChange'>) {
  const { t } = useTranslation();
  const labelId = useId();
  const { total, page, rowsPerPage } = props;
  const from = total === 0 ? 0 : page * rowsPerPage + 1;
  const to = Math.min(total, (page + 1) * rowsPerPage);
  const lastPage = Math.max(0, Math.ceil(total / rowsPerPage) - 1);
  const previous = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  // A button that becomes disabled while focused (the first or last page reached) hands the
  // focus to the other one, as MUI's pager does, so the keyboard user is not dropped to the page.
  const atStart = page === 0;
  const atEnd = page >= lastPage;
  const focused = useRef<'previous' | 'next' | null>(null);
  useEffect(() => {
    if (focused.current === 'previous' && atStart && !atEnd) next.current?.focus();
    if (focused.current === 'next' && atEnd && !atStart) previous.current?.focus();
  }, [atStart, atEnd]);
  const button = (which: 'previous' | 'next') => {
    const label = t(PAGE_BUTTON_LABELS[which]);
    const disabled = which === 'previous' ? atStart : atEnd;
    return (
      <LazyTooltip title={label}>
        <IconButton
          ref={which === 'previous' ? previous : next}
          aria-label={label}
          color="inherit"
          disabled={disabled}
          onClick={() => props.onPageChange(which === 'previous' ? page - 1 : page + 1)}
          onFocus={() => (focused.current = which)}
          onBlur={() => (focused.current = null)}
        >
          <MdiIcon path={which === 'previous' ? mdiChevronLeft : mdiChevronRight} />
        </IconButton>
      </LazyTooltip>
    );
  };
  return (
    <Box
      sx={{
        display: 'flex',
        alignItems: 'center',
        minHeight: 52,
        pr: '2px',
        pl: 2,
        overflowX: 'auto',
        color: 'text.primary',
        typography: 'body2',
        '& p': { m: 0, flexShrink: 0 },
      }}
    >
      <Box sx={{ flex: '1 1 100%' }} />
      <Typography component="p" variant="body2" id={labelId}>
        {t('rows_per_page')}
      </Typography>
      <Box
        component="select"
        aria-labelledby={labelId}
        value={rowsPerPage}
        onChange={(event) => props.onRowsPerPageChange(Number((event.target as HTMLSelectElement).value))}
        sx={{
          flexShrink: 0,
          ml: 1,
          mr: 4,
          py: 0.5,
          pl: 1,
          pr: 0.5,
          font: 'inherit',
          color: 'inherit',
          bgcolor: 'transparent',
          border: 0,
          borderRadius: 1,
          cursor: 'pointer',
          textAlign: 'right',
          '&:focus-visible': { outline: 'none', bgcolor: 'action.focus' },
          '& option': { color: 'text.primary', bgcolor: 'background.paper' },
        }}
      >
        {pageSizeOptions(rowsPerPage).map((size) => (
          <option key={size} value={size} disabled={!isOfferedPageSize(size)} hidden={!isOfferedPageSize(size)}>
            {size}
          </option>
        ))}
      </Box>
      <Typography component="p" variant="body2">
        {t('rows_displayed', { from, to, count: total })}
      </Typography>
      <Box sx={{ flexShrink: 0, ml: 2.5, display: 'flex' }}>
        {button('previous')}
        {button('next')}
      </Box>
    </Box>
  );
}

import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import MenuItem, { type MenuItemProps } from '@mui/material/MenuItem';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { MouseEvent, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { k } from '../i18n/keys';
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

/**
 * A page-size menu item. A size that is not one of the spec's choices (the 15-row default)
 * is there only so the select can show it as the current value: hidden and not focusable.
 */
function PageSizeMenuItem(props: MenuItemProps & { 'data-value'?: number }) {
  if (isOfferedPageSize(Number(props['data-value']))) return <MenuItem {...props} />;
  return <MenuItem {...props} disabled aria-hidden sx={{ display: 'none' }} />;
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
      <TablePagination
        component="div"
        count={props.total}
        page={props.page}
        rowsPerPage={props.rowsPerPage}
        rowsPerPageOptions={pageSizeOptions(props.rowsPerPage)}
        slots={{ menuItem: PageSizeMenuItem }}
        onPageChange={(_event, page) => props.onPageChange(page)}
        onRowsPerPageChange={(event) => props.onRowsPerPageChange(Number(event.target.value))}
        labelRowsPerPage={t('rows_per_page')}
        labelDisplayedRows={({ from, to, count }) => t('rows_displayed', { from, to, count })}
        getItemAriaLabel={(type) => t(PAGE_BUTTON_LABELS[type])}
      />
    </Box>
  );
}

const PAGE_BUTTON_LABELS = {
  first: k('page_first'),
  last: k('page_last'),
  next: k('page_next'),
  previous: k('page_previous'),
} as const;

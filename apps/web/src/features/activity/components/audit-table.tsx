import type { AuditList } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocale } from '../../../i18n/use-locale';
import type { AuditColumn } from './audit-columns';

/** What the table reads of an infinite query of audit pages. */
export interface AuditPagesQuery {
  data?: { pages: AuditList[] };
  isPending: boolean;
  isError: boolean;
  isPlaceholderData: boolean;
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => Promise<unknown>;
}

export interface AuditTableProps {
  label: string;
  columns: AuditColumn[];
  query: AuditPagesQuery;
  /** Shown when nothing matches, already translated. */
  empty: string;
  /** Table height limit (the settings dialog scrolls inside its section). */
  maxHeight?: number | string;
}

/** Below this width the rows reflow into labelled blocks instead of columns. */
const NARROW_QUERY = '(max-width: 599.95px)';

/**
 * The audit rows loaded so far, newest first, with "more" for the next older page. On a
 * phone each row reflows into a labelled block; between that and a wide screen the table
 * scrolls sideways inside its own box, never the page.
 */
export function AuditTable({ label, columns, query, empty, maxHeight }: AuditTableProps) {
  const { t } = useTranslation();
  const locale = useLocale();
  const rows = query.data?.pages.flatMap((page) => page.items) ?? [];
  const first = query.data?.pages[0];
  const narrow = useMediaQuery(NARROW_QUERY);
  let body: ReactNode;
  if (query.isPending || query.isError || rows.length === 0) {
    body = (
      <TableRow>
        <TableCell colSpan={columns.length} sx={{ py: 6, textAlign: 'center', color: query.isError ? 'error.main' : 'text.secondary' }}>
          {query.isPending ? (
            <CircularProgress size={24} aria-label={t('loading')} />
          ) : (
            <Typography variant="body2">{query.isError ? t('request_error_message') : empty}</Typography>
          )}
        </TableCell>
      </TableRow>
    );
  } else if (narrow) {
    // A phone: each record is a block of its fields, one under another, labelled.
    body = rows.map((row) => (
      <TableRow key={row._id} data-testid="audit-row">
        <TableCell sx={{ px: 0.5, py: 1.25 }}>
          <Box component="dl" sx={{ m: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', columnGap: 1.5, rowGap: 0.5, alignItems: 'start' }}>
            {columns.map((column) => (
              <Box key={column.id} sx={{ display: 'contents' }}>
                <Typography component="dt" variant="caption" sx={{ color: 'text.secondary', pt: 0.25, whiteSpace: 'nowrap' }}>
                  {column.label}
                </Typography>
                <Box component="dd" sx={{ m: 0, minWidth: 0, typography: 'body2' }}>
                  {column.render(row)}
                </Box>
              </Box>
            ))}
          </Box>
        </TableCell>
      </TableRow>
    ));
  } else {
    body = rows.map((row) => (
      <TableRow key={row._id} hover data-testid="audit-row" sx={{ verticalAlign: 'top' }}>
        {columns.map((column) => (
          <TableCell key={column.id} sx={{ width: column.width }}>
            {column.render(row)}
          </TableCell>
        ))}
      </TableRow>
    ));
  }
  return (
    <Box sx={{ minWidth: 0 }}>
      <TableContainer sx={{ maxHeight, overflowX: 'auto' }}>
        <Table
          size="small"
          stickyHeader={Boolean(maxHeight)}
          aria-label={label}
          sx={{ minWidth: narrow ? 0 : columns.reduce((sum, column) => sum + (column.width ?? 160), 0), opacity: query.isPlaceholderData ? 0.6 : 1 }}
        >
          <TableHead sx={narrow ? { display: 'none' } : undefined}>
            <TableRow>
              {columns.map((column) => (
                <TableCell key={column.id} sx={{ width: column.width, fontWeight: 700, whiteSpace: 'nowrap' }}>
                  {column.label}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>{body}</TableBody>
        </Table>
      </TableContainer>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 2, flexWrap: 'wrap', pt: 1.5 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary', flexGrow: 1 }} aria-live="polite">
          {first && rows.length > 0
            ? first.totalCapped
              ? t('audit_shown_capped', { shown: rows.length.toLocaleString(locale), total: first.total.toLocaleString(locale) })
              : t('audit_shown', { shown: rows.length.toLocaleString(locale), total: first.total.toLocaleString(locale) })
            : ''}
        </Typography>
        {query.hasNextPage && (
          <Button variant="outlined" size="small" onClick={() => void query.fetchNextPage()} disabled={query.isFetchingNextPage}>
            {query.isFetchingNextPage ? <CircularProgress size={18} aria-label={t('loading')} /> : t('audit_more')}
          </Button>
        )}
      </Box>
    </Box>
  );
}

import { BULK_PREVIEW_PAGE_SIZE, type BulkRow } from '@bogwan/contracts';
import { mdiClose } from '@mdi/js';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { messageText } from '../../../i18n/keys';
import { parseGroups, rowProblem } from '../lib/bulk-rows';

interface BulkListTableProps {
  label: string;
  rows: BulkRow[];
  /** Show the server's reason per row (the invalid and duplicate lists). */
  showError?: boolean;
  onChange: (index: number, row: BulkRow) => void;
  onRemove: (index: number) => void;
}

/** One preview list of bulk registration: editable rows, 5 per page, each removable. */
export function BulkListTable({ label, rows, showError, onChange, onRemove }: BulkListTableProps) {
  const { t } = useTranslation();
  const [page, setPage] = useState(0);
  const lastPage = Math.max(0, Math.ceil(rows.length / BULK_PREVIEW_PAGE_SIZE) - 1);
  // Removing the last row of the last page steps back a page.
  useEffect(() => {
    if (page > lastPage) setPage(lastPage);
  }, [page, lastPage]);
  const start = page * BULK_PREVIEW_PAGE_SIZE;
  const shown = rows.slice(start, start + BULK_PREVIEW_PAGE_SIZE);

  if (rows.length === 0) {
    return (
      <Typography variant="body2" sx={{ color: 'text.secondary', textAlign: 'center', py: 6 }}>
        {t('no_data')}
      </Typography>
    );
  }

  return (
    <>
      <TableContainer>
        <Table size="small" aria-label={label}>
          <TableHead>
            <TableRow>
              <TableCell sx={{ fontWeight: 700 }}>{t('name')}</TableCell>
              <TableCell sx={{ fontWeight: 700 }}>{t('email')}</TableCell>
              <TableCell sx={{ fontWeight: 700 }}>{t('password')}</TableCell>
              <TableCell sx={{ fontWeight: 700 }}>{t('groups')}</TableCell>
              {showError && <TableCell sx={{ fontWeight: 700 }}>{t('bulk_reason')}</TableCell>}
              <TableCell sx={{ width: 48 }} />
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.map((row, offset) => {
              const index = start + offset;
              const problem = rowProblem(row);
              const cell = (field: 'name' | 'email' | 'password', labelKey: 'name' | 'email' | 'password') => (
                <TableCell>
                  <TextField
                    variant="standard"
                    size="small"
                    fullWidth
                    type={field === 'password' ? 'password' : 'text'}
                    value={row[field] ?? ''}
                    placeholder={field === 'password' ? t('bulk_password_initial') : undefined}
                    onChange={(event) => onChange(index, { ...row, [field]: event.target.value })}
                    error={
                      (field === 'name' && problem?.startsWith('rules_name')) ||
                      (field === 'email' && problem?.startsWith('rules_email')) ||
                      (field === 'password' && problem?.startsWith('rules_password')) ||
                      false
                    }
                    slotProps={{ htmlInput: { 'aria-label': `${t(labelKey)} ${index + 1}` } }}
                  />
                </TableCell>
              );
              return (
                <TableRow key={index} data-bulk-email={row.email}>
                  {cell('name', 'name')}
                  {cell('email', 'email')}
                  {cell('password', 'password')}
                  <TableCell>
                    <TextField
                      variant="standard"
                      size="small"
                      fullWidth
                      value={(row.groups ?? []).join(', ')}
                      onChange={(event) => onChange(index, { ...row, groups: parseGroups(event.target.value) })}
                      slotProps={{ htmlInput: { 'aria-label': `${t('groups')} ${index + 1}` } }}
                    />
                  </TableCell>
                  {showError && (
                    <TableCell sx={{ color: 'error.main', fontSize: 13 }}>{row.error || problem ? messageText(t, row.error ?? problem) : ''}</TableCell>
                  )}
                  <TableCell>
                    <IconButton size="small" aria-label={t('bulk_remove_row', { n: index + 1 })} onClick={() => onRemove(index)}>
                      <MdiIcon path={mdiClose} fontSize="small" />
                    </IconButton>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={rows.length}
        page={Math.min(page, lastPage)}
        rowsPerPage={BULK_PREVIEW_PAGE_SIZE}
        rowsPerPageOptions={[BULK_PREVIEW_PAGE_SIZE]}
        onPageChange={(_event, next) => setPage(next)}
        labelDisplayedRows={({ from, to, count }) => t('rows_displayed', { from, to, count })}
      />
    </>
  );
}

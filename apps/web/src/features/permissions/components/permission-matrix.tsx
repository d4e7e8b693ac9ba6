import { PERMISSION_TYPES, type PermissionType } from '@bogwan/contracts';
import { mdiChevronDown, mdiChevronUp, mdiUndoVariant } from '@mdi/js';
import Box from '@mui/material/Box';
import Checkbox from '@mui/material/Checkbox';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { Fragment, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { columnState, isNone, toggleColumn, togglePermission, type EntryPermissions, type MatrixColumn } from '../lib/permission-matrix';
import { COLUMN_LABELS, PERMISSION_LABELS } from '../../../lib/permission-labels';

export interface MatrixRow {
  id: string;
  /** What the row is (avatar and name), shown in the first cell. */
  label: ReactNode;
  /** Accessible name of the row, for its checkboxes. */
  name: string;
  permissions: EntryPermissions;
  /** Columns and single permissions that cannot be changed on this row. */
  locked?: readonly PermissionType[];
}

interface PermissionMatrixProps {
  label: string;
  columns: readonly MatrixColumn[];
  rows: MatrixRow[];
  onChange: (id: string, permissions: EntryPermissions) => void;
  /** Rows may drop their entry (and inherit again). */
  removable?: boolean;
  /** Shown on rows without an entry. */
  inheritedNote?: string;
  disabled?: boolean;
}

/**
 * The permission matrix: a checkbox per column (ticked when all of its permissions are
 * there, half when some), a none column that clears all, and per row the single
 * permissions to toggle one by one.
 */
export function PermissionMatrix({ label, columns, rows, onChange, removable, inheritedNote, disabled }: PermissionMatrixProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  const span = columns.length + 3;

  return (
    <TableContainer>
      <Table size="small" aria-label={label} sx={{ '& td, & th': { px: 0.75 } }}>
        <TableHead>
          <TableRow>
            <TableCell sx={{ fontWeight: 700, minWidth: 180 }}>{label}</TableCell>
            {columns.map((column) => (
              <TableCell key={column.id} align="center" sx={{ fontWeight: 700, whiteSpace: 'nowrap', fontSize: 12 }}>
                {t(COLUMN_LABELS[column.id] ?? 'perm_col_none')}
              </TableCell>
            ))}
            <TableCell align="center" sx={{ fontWeight: 700, whiteSpace: 'nowrap', fontSize: 12 }}>
              {t('perm_col_none')}
            </TableCell>
            <TableCell sx={{ width: 72 }} />
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((row) => {
            const locked = row.locked ?? [];
            const expanded = open === row.id;
            return (
              <Fragment key={row.id}>
                <TableRow hover data-matrix-row={row.name}>
                  <TableCell>
                    <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
                      {row.label}
                      {row.permissions === null && inheritedNote && <Chip size="small" variant="outlined" label={inheritedNote} sx={{ fontSize: 11 }} />}
                    </Stack>
                  </TableCell>
                  {columns.map((column) => {
                    const state = columnState(row.permissions, column);
                    const blocked = disabled || column.permissions.every((p) => locked.includes(p));
                    return (
                      <TableCell key={column.id} align="center">
                        <Checkbox
                          size="small"
                          checked={state === 'all'}
                          indeterminate={state === 'some'}
                          disabled={blocked}
                          onChange={() =>
                            onChange(row.id, toggleColumn(row.permissions, { ...column, permissions: column.permissions.filter((p) => !locked.includes(p)) }))
                          }
                          slotProps={{ input: { 'aria-label': `${row.name} ${t(COLUMN_LABELS[column.id] ?? 'perm_col_none')}` } }}
                        />
                      </TableCell>
                    );
                  })}
                  <TableCell align="center">
                    <Checkbox
                      size="small"
                      checked={isNone(row.permissions)}
                      disabled={disabled}
                      onChange={() => onChange(row.id, [])}
                      slotProps={{ input: { 'aria-label': `${row.name} ${t('perm_col_none')}` } }}
                    />
                  </TableCell>
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    {removable && row.permissions !== null && (
                      <Tooltip title={t('permission_entry_remove')}>
                        <IconButton
                          size="small"
                          disabled={disabled}
                          aria-label={`${row.name} ${t('permission_entry_remove')}`}
                          onClick={() => onChange(row.id, null)}
                        >
                          <MdiIcon path={mdiUndoVariant} fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                    <Tooltip title={t('permission_details')}>
                      <IconButton
                        size="small"
                        aria-expanded={expanded}
                        aria-label={`${row.name} ${t('permission_details')}`}
                        onClick={() => setOpen(expanded ? null : row.id)}
                      >
                        <MdiIcon path={expanded ? mdiChevronUp : mdiChevronDown} fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  </TableCell>
                </TableRow>
                {expanded && (
                  <TableRow>
                    <TableCell colSpan={span} sx={{ bgcolor: 'action.hover' }}>
                      <Box sx={{ py: 0.5 }}>
                        <Typography variant="caption" sx={{ color: 'text.secondary' }}>
                          {t('permission_details_help')}
                        </Typography>
                        <Stack
                          direction="row"
                          useFlexGap
                          spacing={0.75}
                          sx={{ flexWrap: 'wrap', mt: 0.75 }}
                          role="group"
                          aria-label={`${row.name} ${t('permission_details')}`}
                        >
                          {PERMISSION_TYPES.map((permission) => {
                            const on = row.permissions?.includes(permission) ?? false;
                            return (
                              <Chip
                                key={permission}
                                size="small"
                                label={t(PERMISSION_LABELS[permission])}
                                color={on ? 'primary' : 'default'}
                                variant={on ? 'filled' : 'outlined'}
                                disabled={disabled || locked.includes(permission)}
                                aria-pressed={on}
                                onClick={() => onChange(row.id, togglePermission(row.permissions, permission))}
                              />
                            );
                          })}
                        </Stack>
                      </Box>
                    </TableCell>
                  </TableRow>
                )}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}

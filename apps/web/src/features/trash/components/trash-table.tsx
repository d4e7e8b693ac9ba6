import type { TrashEntry } from '@bogwan/contracts';
import { mdiDeleteForeverOutline, mdiRestore } from '@mdi/js';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import type { PagedColumn } from '../../../components/paged-table';
import { MdiIcon } from '../../../components/mdi-icon';
import { formatDateTime } from '../../../i18n/format-time';
import { FileIcon } from '../../../components/file-icon';
import { formatBytes } from '../../../lib/format-bytes';

export interface TrashRowActions {
  restore: (entry: TrashEntry) => void;
  /** Deleting for good (administrators); without it the table is one's own trash: no "who" column, no delete. */
  purge?: (entry: TrashEntry) => void;
  busy: boolean;
}

/** The folder an item was trashed from: its path without its own name. */
export function originOf(entry: TrashEntry): string | null {
  if (entry.path === null) return null;
  const cut = entry.path.lastIndexOf('/');
  return cut <= 0 ? '/' : entry.path.slice(0, cut);
}

/** Columns of the trash: name, where from, who (the administrative trash), when, size, and the row's actions. */
export function trashColumns(t: TFunction, locale: string, actions: TrashRowActions): PagedColumn<TrashEntry>[] {
  const { purge } = actions;
  const columns: PagedColumn<TrashEntry>[] = [
    {
      id: 'name',
      label: t('column_name'),
      render: (row) => (
        <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}>
          <FileIcon name={row.name} folder={row.folder} fontSize="small" />
          <Box component="span" sx={{ overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={row.name}>
            {row.name}
          </Box>
        </Box>
      ),
    },
    {
      id: 'origin',
      label: t('trash_origin'),
      render: (row) => {
        const origin = originOf(row);
        return origin === null ? (
          <Typography variant="body2" sx={{ color: 'warning.main' }}>
            {t('trash_origin_gone')}
          </Typography>
        ) : (
          <Box component="span" sx={{ wordBreak: 'break-all' }}>
            {origin}
          </Box>
        );
      },
    },
    {
      id: 'trashedBy',
      label: t('trash_trashed_by'),
      width: 180,
      render: (row) =>
        row.trashedBy ? (
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="body2" noWrap>
              {row.trashedBy.name}
            </Typography>
            <Typography variant="caption" noWrap sx={{ color: 'text.secondary', display: 'block' }}>
              {row.trashedBy.email}
            </Typography>
          </Box>
        ) : (
          '—'
        ),
    },
    {
      id: 'trashedAt',
      label: t('trash_trashed_at'),
      width: 170,
      render: (row) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(row.trashedAt, locale)}
        </Box>
      ),
    },
    { id: 'size', label: t('column_size'), width: 90, align: 'right', render: (row) => (row.folder ? '—' : formatBytes(row.size, locale)) },
    {
      id: 'actions',
      label: '',
      width: purge ? 96 : 56,
      align: 'right',
      render: (row) => (
        <Box sx={{ display: 'flex', justifyContent: 'flex-end' }}>
          <LazyTooltip title={t('trash_restore')}>
            <span>
              <IconButton
                size="small"
                aria-label={`${t('trash_restore')}: ${row.name}`}
                onClick={() => actions.restore(row)}
                disabled={actions.busy || row.path === null}
              >
                <MdiIcon path={mdiRestore} fontSize="small" />
              </IconButton>
            </span>
          </LazyTooltip>
          {purge && (
            <LazyTooltip title={t('trash_delete_forever')}>
              <span>
                <IconButton
                  size="small"
                  color="error"
                  aria-label={`${t('trash_delete_forever')}: ${row.name}`}
                  onClick={() => purge(row)}
                  disabled={actions.busy}
                >
                  <MdiIcon path={mdiDeleteForeverOutline} fontSize="small" />
                </IconButton>
              </span>
            </LazyTooltip>
          )}
        </Box>
      ),
    },
  ];
  return purge ? columns : columns.filter((column) => column.id !== 'trashedBy');
}

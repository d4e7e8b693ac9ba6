import { SETTINGS_PAGE_SIZE } from '@bogwan/contracts';
import { mdiRefresh } from '@mdi/js';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Paper from '@mui/material/Paper';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { PagedTable } from '../../../components/paged-table';
import { usePaging } from '../../../components/use-paging';
import { useLocale } from '../../../i18n/use-locale';
import { useMyTrash } from '../api/get-my-trash';
import { useRestoreEntry } from '../api/restore-trash';
import { trashColumns } from './trash-table';

/** One's own trash: what the signed-in account deleted, where from and when; each item can be restored. */
export function MyTrashView() {
  const { t } = useTranslation();
  const locale = useLocale();
  const paging = usePaging(SETTINGS_PAGE_SIZE);
  const trash = useMyTrash(paging.page * paging.rowsPerPage, paging.rowsPerPage);
  const restore = useRestoreEntry();
  const total = trash.data?.total ?? 0;
  const columns = trashColumns(t, locale, { busy: restore.isPending, restore: restore.start });

  return (
    <Paper variant="outlined" sx={{ borderRadius: 2, p: 2 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="subtitle2" sx={{ fontWeight: 700, flexGrow: 1 }}>
          {t('trash_items', { count: total })}
        </Typography>
        <LazyTooltip title={t('refresh')}>
          <IconButton aria-label={t('refresh')} onClick={() => void trash.refetch()}>
            <MdiIcon path={mdiRefresh} />
          </IconButton>
        </LazyTooltip>
      </Box>
      <PagedTable
        label={t('nav_my_trash')}
        columns={columns}
        rows={trash.data?.items ?? []}
        rowKey={(row) => row._id}
        total={total}
        {...paging.props}
        loading={trash.isPending}
        error={trash.isError}
        empty={t('my_trash_empty_state')}
      />
    </Paper>
  );
}

import { SETTINGS_PAGE_SIZE, type Notification } from '@bogwan/contracts';
import { mdiCheck, mdiCheckAll } from '@mdi/js';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { PagedTable, type PagedColumn } from '../../../components/paged-table';
import { formatDateTime } from '../../../i18n/format-time';
import { messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useAuth } from '../../../state/auth';
import { useNotifications } from '../api/get-notifications';
import { useReadAllNotifications } from '../api/read-all-notifications';
import { NotificationMessage } from './notification-message';
import { usePaging } from '../../../components/use-paging';

/** Settings → Notification: every notification (message, time, read) and 'all read'. */
export function NotificationSection() {
  const { t } = useTranslation();
  const locale = useLocale();
  const userId = useAuth()?.user._id ?? '';
  const list = useNotifications(userId);
  const readAll = useReadAllNotifications(userId);
  const paging = usePaging(SETTINGS_PAGE_SIZE);
  const rows = list.data ?? [];
  const hasUnread = rows.some((row) => !row.read);

  const columns: PagedColumn<Notification>[] = [
    { id: 'message', label: t('column_message'), render: (row) => <NotificationMessage note={row} /> },
    {
      id: 'createdAt',
      label: t('column_created_at'),
      width: 190,
      render: (row) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(row.createdAt, locale)}
        </Box>
      ),
    },
    {
      id: 'read',
      label: t('column_read'),
      width: 72,
      align: 'center',
      render: (row) => (row.read ? <MdiIcon path={mdiCheck} fontSize="small" color="success" titleAccess={t('column_read')} /> : null),
    },
  ];

  return (
    <Box>
      <Box sx={{ display: 'flex', justifyContent: 'flex-end', mb: 1 }}>
        <Button
          variant="outlined"
          size="small"
          startIcon={<MdiIcon path={mdiCheckAll} fontSize="small" />}
          disabled={!hasUnread || readAll.isPending}
          onClick={() =>
            readAll.mutate(undefined, {
              onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
            })
          }
        >
          {t('notification_read_all')}
        </Button>
      </Box>
      <PagedTable
        label={t('settings_notification')}
        columns={columns}
        rows={paging.slice(rows)}
        rowKey={(row) => row._id}
        total={rows.length}
        {...paging.props}
        loading={list.isPending}
        error={list.isError}
        empty={t('no_data')}
      />
    </Box>
  );
}

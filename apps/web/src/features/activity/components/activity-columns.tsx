import type { Activity } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import type { TFunction } from 'i18next';
import type { PagedColumn } from '../../../components/paged-table';
import { formatDateTime } from '../../../i18n/format-time';
import { k } from '../../../i18n/keys';

/** Names of the services the server records; anything else shows as the server wrote it. */
const SERVICE_LABELS: Record<string, ReturnType<typeof k>> = {
  auth: k('service_auth'),
  file: k('service_file'),
  trash: k('service_trash'),
  notice: k('service_notice'),
  share: k('service_share'),
  user: k('service_user'),
  system: k('service_system'),
  task: k('service_task'),
};

/** The label of a service. */
export function serviceLabel(t: TFunction, service: string): string {
  const key = SERVICE_LABELS[service];
  return key ? t(key) : service;
}

/** Columns of the activity table: createdAt, type (service), message; optionally the user. */
export function activityColumns(t: TFunction, locale: string, userLabel?: (activity: Activity) => string): PagedColumn<Activity>[] {
  const columns: PagedColumn<Activity>[] = [
    {
      id: 'createdAt',
      label: t('column_created_at'),
      width: 190,
      render: (row) => <Box component="span" sx={{ whiteSpace: 'nowrap' }}>{formatDateTime(row.createdAt, locale)}</Box>,
    },
    {
      id: 'service',
      label: t('column_type'),
      width: 110,
      render: (row) => <Chip size="small" variant="outlined" label={serviceLabel(t, row.service)} />,
    },
  ];
  if (userLabel) {
    columns.push({
      id: 'user',
      label: t('column_user'),
      width: 200,
      render: (row) => (
        <Box component="span" sx={{ display: 'block', maxWidth: 200, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }} title={userLabel(row)}>
          {userLabel(row)}
        </Box>
      ),
    });
  }
  columns.push({ id: 'message', label: t('column_message'), render: (row) => <Box component="span" sx={{ wordBreak: 'break-word' }}>{row.message}</Box> });
  return columns;
}

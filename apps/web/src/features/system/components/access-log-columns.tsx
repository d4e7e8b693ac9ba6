import type { AccessLogEntry } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import type { TFunction } from 'i18next';
import type { PagedColumn } from '../../../components/paged-table';
import { formatDateTime } from '../../../i18n/format-time';
import { formatBytes } from '../../../lib/format-bytes';
import { Tag } from '../../../components/tag';

function statusColor(status: number): 'success' | 'info' | 'warning' | 'error' | 'default' {
  if (status >= 500) return 'error';
  if (status >= 400) return 'warning';
  if (status >= 300) return 'info';
  if (status >= 200) return 'success';
  return 'default';
}

const clipped = (text: string, width: number) => (
  <Box component="span" title={text} sx={{ display: 'block', maxWidth: width, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
    {text}
  </Box>
);

/** Columns of the system log: time, ip, method, url, status, response time, length, user agent. */
export function accessLogColumns(t: TFunction, locale: string): PagedColumn<AccessLogEntry>[] {
  return [
    {
      id: 'createdAt',
      label: t('column_created_at'),
      width: 170,
      render: (row) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(row.createdAt, locale)}
        </Box>
      ),
    },
    { id: 'ip', label: t('log_ip'), width: 130, render: (row) => clipped(row.ip, 130) },
    {
      id: 'method',
      label: t('log_method'),
      width: 70,
      render: (row) => (
        <Box component="span" sx={{ fontFamily: 'monospace' }}>
          {row.method}
        </Box>
      ),
    },
    {
      id: 'url',
      label: t('log_url'),
      render: (row) => (
        <Box
          component="span"
          title={row.url}
          sx={{ display: 'block', minWidth: 200, maxWidth: 520, fontFamily: 'monospace', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
        >
          {row.url}
        </Box>
      ),
    },
    {
      id: 'status',
      label: t('log_status'),
      width: 70,
      align: 'center',
      render: (row) => <Tag variant="outlined" color={statusColor(row.status)} label={row.status} />,
    },
    {
      id: 'responseTime',
      label: t('log_response_time'),
      width: 90,
      align: 'right',
      render: (row) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {t('log_ms', { n: row.responseTime })}
        </Box>
      ),
    },
    {
      id: 'contentLength',
      label: t('log_content_length'),
      width: 90,
      align: 'right',
      render: (row) => (
        <Box component="span" sx={{ whiteSpace: 'nowrap' }}>
          {row.contentLength === null ? '—' : formatBytes(row.contentLength, locale)}
        </Box>
      ),
    },
    { id: 'userAgent', label: t('log_user_agent'), width: 180, render: (row) => clipped(row.userAgent, 180) },
  ];
}

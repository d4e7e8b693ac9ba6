import type { AuditRecord, Locale } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../../i18n/format-time';
import { messageText } from '../../../i18n/keys';
import { recordText } from '../lib/action-text';
import { actorDetail, actorName } from '../lib/actor-text';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import { Tag } from '../../../components/tag';

export interface AuditColumn {
  id: 'time' | 'person' | 'action' | 'target' | 'outcome' | 'address';
  label: string;
  width?: number;
  render: (row: AuditRecord) => ReactNode;
}

const secondary = { display: 'block', color: 'text.secondary', wordBreak: 'break-word' } as const;

/** The audit table's columns: time, person (when the viewer can see others), action, target (unless one item's history), outcome, address. */
export function auditColumns(t: TFunction, locale: Locale, options: { person: boolean; target?: boolean }): AuditColumn[] {
  const columns: AuditColumn[] = [
    {
      id: 'time',
      label: t('audit_column_time'),
      width: 150,
      render: (row) => (
        <Box component="time" dateTime={row.createdAt} sx={{ whiteSpace: 'nowrap' }}>
          {formatDateTime(row.createdAt, locale)}
        </Box>
      ),
    },
  ];
  if (options.person) {
    columns.push({
      id: 'person',
      label: t('audit_column_person'),
      width: 210,
      render: (row) => {
        const detail = actorDetail(t, row.actor);
        return (
          <Box sx={{ minWidth: 0, maxWidth: 220 }}>
            <Typography variant="body2" component="span" sx={{ display: 'block', fontWeight: 500 }}>
              {actorName(t, row.actor)}
            </Typography>
            {detail && (
              <Typography
                variant="caption"
                component="span"
                title={detail}
                sx={{ ...secondary, wordBreak: 'normal', overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
              >
                {detail}
              </Typography>
            )}
          </Box>
        );
      },
    });
  }
  columns.push({
    id: 'action',
    label: t('audit_column_action'),
    width: 180,
    render: (row) => {
      const { label, detail } = recordText(t, locale, row);
      return (
        <Box data-action={row.action}>
          <Typography variant="body2" component="span" sx={{ display: 'block' }}>
            {label}
          </Typography>
          {detail && (
            <Typography variant="caption" component="span" sx={secondary}>
              {detail}
            </Typography>
          )}
        </Box>
      );
    },
  });
  if (options.target !== false) {
    columns.push({
      id: 'target',
      label: t('audit_column_target'),
      width: 240,
      render: (row) => (
        <Box component="span" sx={{ wordBreak: 'break-all' }}>
          {row.target?.path ?? row.target?.label ?? ''}
        </Box>
      ),
    });
  }
  columns.push(
    {
      id: 'outcome',
      label: t('audit_column_outcome'),
      width: 150,
      render: (row) =>
        row.outcome === 'refused' ? (
          <Box>
            <Tag color="error" variant="outlined" label={t('audit_outcome_refused')} />
            {row.reason && (
              <Typography variant="caption" component="span" sx={{ ...secondary, mt: 0.5 }}>
                {messageText(t, row.reason)}
              </Typography>
            )}
          </Box>
        ) : (
          <Tag color="success" variant="outlined" label={t('audit_outcome_allowed')} />
        ),
    },
    {
      id: 'address',
      label: t('audit_column_address'),
      width: 130,
      render: (row) => (
        <LazyTooltip title={row.userAgent ?? ''} placement="left">
          <Box component="span" sx={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
            {row.ip ?? ''}
          </Box>
        </LazyTooltip>
      ),
    },
  );
  return columns;
}

import type { ApprovalRequest, RequestAction, RequestBox } from '@bogwan/contracts';
import { mdiCancel, mdiCheck, mdiClose } from '@mdi/js';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import Typography from '@mui/material/Typography';
import { lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ApiError } from '../../../api/client';
import { TabStrip } from '../../../components/tab-strip';
import { DataTable, type DataColumn, type DataRowAction } from '../../../components/data-table';
import { Deferred } from '../../../components/deferred';
import { notify } from '../../../components/notify';
import { formatDateTime } from '../../../i18n/format-time';
import { k, messageText } from '../../../i18n/keys';
import { useLocale } from '../../../i18n/use-locale';
import { useActOnRequest } from '../api/act-on-request';
import { useRequests } from '../api/list-requests';
import { RequestStatusChip } from './request-status';

// The reject dialog (a text field) loads its code when first opened.
const RejectDialog = lazy(() => import('./reject-dialog').then((m) => ({ default: m.RejectDialog })));

const BOXES: RequestBox[] = ['mine', 'approve'];
const NO_WRAP_SX = { whiteSpace: 'nowrap' } as const;
const DONE_MESSAGES = { approve: k('request_approved_message'), reject: k('request_rejected_message'), cancel: k('request_canceled_message') } as const;

/** /requests: my requests and those I may decide, as data tables with approve, reject and cancel. */
export function RequestsPage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const index = params.get('tab') === '1' ? 1 : 0;
  const box = BOXES[index]!;

  useEffect(() => {
    document.title = `${t('nav_requests')} · ${t('app_title')}`;
  }, [t]);

  return (
    // minWidth 0: the table's width stays inside the page (it scrolls in its own box) instead of widening it.
    <Box component="section" sx={{ maxWidth: 1280, mx: 'auto', width: '100%', minWidth: 0 }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {t('nav_requests')}
      </Typography>
      <Typography variant="body2" sx={{ color: 'text.secondary', mb: 2 }}>
        {t('requests_description')}
      </Typography>
      <TabStrip
        sx={{ mb: 2 }}
        labels={[t('requests_tab_mine'), t('requests_tab_approve')]}
        value={index}
        onChange={(value) =>
          setParams((before) => {
            const next = new URLSearchParams(before);
            next.set('tab', String(value));
            return next;
          })
        }
      />
      <Paper variant="outlined" sx={{ p: { xs: 1, sm: 2 }, borderRadius: 2, minWidth: 0 }}>
        <RequestsTable key={box} box={box} />
      </Paper>
    </Box>
  );
}

function RequestsTable({ box }: { box: RequestBox }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const requests = useRequests(box);
  const act = useActOnRequest();
  const [rejecting, setRejecting] = useState<ApprovalRequest | null>(null);
  // Dates and short labels never break inside: a wide table scrolls in its own box instead.
  const date = (iso: string | null) => (
    <Box component="span" sx={NO_WRAP_SX}>
      {iso ? formatDateTime(iso, locale) : '—'}
    </Box>
  );

  const run = (row: ApprovalRequest, action: RequestAction, reason?: string) =>
    act.mutate(
      { id: row._id, action, reason },
      {
        onSuccess: () => {
          notify(t(DONE_MESSAGES[action]), 'success');
          setRejecting(null);
        },
        onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
      },
    );

  const columns: DataColumn<ApprovalRequest>[] = [
    { id: 'status', label: t('column_status'), render: (row) => <RequestStatusChip status={row.status} /> },
    {
      id: 'type',
      label: t('column_type'),
      render: (row) => (
        <Box component="span" sx={NO_WRAP_SX}>
          {row.type === 'share' ? t('request_type_share') : t('request_type_download')}
        </Box>
      ),
    },
    {
      id: 'contents',
      label: t('request_contents'),
      render: (row) => (
        <LazyTooltip title={row.contents.join('\n')}>
          <Typography variant="body2" sx={{ maxWidth: 260, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
            {row.contents[0]}
            {row.contents.length > 1 ? ` (+${row.contents.length - 1})` : ''}
          </Typography>
        </LazyTooltip>
      ),
    },
    ...(box === 'approve'
      ? [{ id: 'requester', label: t('request_requester'), render: (row: ApprovalRequest) => row.requester.name || row.requester.email }]
      : []),
    { id: 'approver', label: t('request_approver'), render: (row) => row.approver?.name ?? '—' },
    {
      id: 'reason',
      label: t('request_reason'),
      render: (row) => (
        <Typography variant="body2" sx={{ maxWidth: 220, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>
          {row.rejectReason ? `${row.reason} → ${row.rejectReason}` : row.reason}
        </Typography>
      ),
    },
    {
      id: 'limit',
      label: t('request_download_limit'),
      align: 'right',
      render: (row) => (row.type === 'download' ? `${row.downloadsLeft} / ${row.downloadLimit}` : '—'),
    },
    { id: 'requestDate', label: t('request_date'), render: (row) => date(row.requestDate) },
    { id: 'approvalDate', label: t('request_approval_date'), render: (row) => date(row.approvalDate) },
    { id: 'finalApprovalDate', label: t('request_final_approval_date'), render: (row) => date(row.finalApprovalDate) },
    { id: 'processingDate', label: t('request_processing_date'), render: (row) => date(row.processingDate) },
    { id: 'expiresAt', label: t('request_expires_at'), render: (row) => (row.status === 'PENDING' || row.status === 'APPROVED' ? date(row.expiresAt) : '—') },
  ];

  const actions: DataRowAction<ApprovalRequest>[] = [
    { id: 'approve', label: t('request_approve'), icon: mdiCheck, visible: (row) => row.canApprove, run: (row) => run(row, 'approve') },
    { id: 'reject', label: t('request_reject'), icon: mdiClose, danger: true, visible: (row) => row.canApprove, run: (row) => setRejecting(row) },
    { id: 'cancel', label: t('request_cancel'), icon: mdiCancel, visible: (row) => row.canCancel, run: (row) => run(row, 'cancel') },
  ];

  return (
    <>
      <DataTable
        label={box === 'mine' ? t('requests_tab_mine') : t('requests_tab_approve')}
        columns={columns}
        rows={requests.data ?? []}
        rowKey={(row) => row._id}
        searchText={(row) =>
          [row.contents.join(' '), row.reason, row.rejectReason ?? '', row.requester.name, row.requester.email, row.approver?.name ?? '', row.status].join(' ')
        }
        actions={actions}
        onRefresh={() => void requests.refetch()}
        loading={requests.isPending}
        error={requests.isError}
      />
      <Deferred open={rejecting !== null}>
        <RejectDialog
          open={rejecting !== null}
          busy={act.isPending}
          onClose={() => setRejecting(null)}
          onReject={(reason) => rejecting && run(rejecting, 'reject', reason)}
        />
      </Deferred>
    </>
  );
}

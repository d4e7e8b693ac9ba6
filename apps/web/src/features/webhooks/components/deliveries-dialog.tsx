import type { OutgoingWebhook, WebhookDelivery } from '@bogwan/contracts';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslation } from 'react-i18next';
import { PagedTable, type PagedColumn } from '../../../components/paged-table';
import { usePaging } from '../../../components/use-paging';
import { useDeliveries } from '../api/outgoing-webhooks';
import { DELIVERY_STATUS_LABELS, EVENT_LABELS } from './event-labels';

const STATUS_COLORS = { pending: 'default', delivered: 'success', failed: 'error' } as const;

/** The delivery log of one outgoing webhook: event, outcome, attempts, answer, time. */
export function DeliveriesDialog({ hook, onClose }: { hook: OutgoingWebhook; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const deliveries = useDeliveries(hook._id);
  const paging = usePaging(10);
  const rows = deliveries.data ?? [];
  const columns: PagedColumn<WebhookDelivery>[] = [
    { id: 'createdAt', label: t('webhook_delivery_time'), render: (d) => new Date(d.createdAt).toLocaleString(i18n.language) },
    { id: 'event', label: t('webhook_delivery_event'), render: (d) => t(EVENT_LABELS[d.event]) },
    {
      id: 'status',
      label: t('webhook_delivery_status'),
      render: (d) => <Chip size="small" color={STATUS_COLORS[d.status]} label={t(DELIVERY_STATUS_LABELS[d.status])} />,
    },
    { id: 'attempts', label: t('webhook_delivery_attempts'), align: 'right', render: (d) => d.attempts },
    { id: 'answer', label: t('webhook_delivery_answer'), render: (d) => [d.responseStatus, d.error].filter((v) => v !== null).join(' · ') || '-' },
  ];
  return (
    <Dialog open onClose={onClose} maxWidth="md" fullWidth aria-labelledby="deliveries-title">
      <DialogTitle id="deliveries-title">{t('webhook_deliveries_of', { name: hook.title || hook.url })}</DialogTitle>
      <DialogContent>
        <PagedTable
          label={t('webhook_deliveries')}
          columns={columns}
          rows={paging.slice(rows)}
          rowKey={(d) => d._id}
          total={rows.length}
          {...paging.props}
          loading={deliveries.isPending}
          error={deliveries.isError}
          empty={t('no_data')}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('close')}</Button>
      </DialogActions>
    </Dialog>
  );
}

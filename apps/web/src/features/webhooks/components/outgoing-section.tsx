import type { OutgoingWebhook } from '@bogwan/contracts';
import { mdiDeleteOutline, mdiHistory, mdiPlus } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { useDeleteOutgoingWebhook, useOutgoingWebhooks } from '../api/outgoing-webhooks';
import { AllowedHostsForm } from './allowed-hosts-form';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { DeliveriesDialog } from './deliveries-dialog';
import { EVENT_LABELS } from './event-labels';
import { OutgoingCreateDialog } from './outgoing-create-dialog';

function OutgoingCard({ hook, onDelete, onLog }: { hook: OutgoingWebhook; onDelete: () => void; onLog: () => void }) {
  const { t } = useTranslation();
  const name = hook.title || hook.url;
  return (
    <Card variant="outlined" aria-label={name}>
      <CardHeader
        title={name}
        subheader={
          <Box component="span" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            {hook.url}
          </Box>
        }
        slotProps={{ title: { variant: 'subtitle1', sx: { fontWeight: 700 } } }}
        action={
          <Stack direction="row">
            <Tooltip title={t('webhook_deliveries')}>
              <IconButton aria-label={t('webhook_deliveries_of', { name })} onClick={onLog}>
                <MdiIcon path={mdiHistory} />
              </IconButton>
            </Tooltip>
            <Tooltip title={t('delete')}>
              <IconButton aria-label={t('webhook_delete_of', { name })} onClick={onDelete}>
                <MdiIcon path={mdiDeleteOutline} />
              </IconButton>
            </Tooltip>
          </Stack>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5, mb: 1 }}>
          {hook.events.map((event) => (
            <Chip key={event} size="small" label={t(EVENT_LABELS[event])} />
          ))}
        </Stack>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('webhook_created_by', { date: hook.createdAt.slice(0, 10), email: hook.userEmail || '-' })}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** Settings → Integration → Outgoing webhooks: subscriptions, their delivery logs, and the allowed host names. */
export function OutgoingSection() {
  const { t } = useTranslation();
  const hooks = useOutgoingWebhooks();
  const remove = useDeleteOutgoingWebhook();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<OutgoingWebhook | null>(null);
  const [log, setLog] = useState<OutgoingWebhook | null>(null);

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('webhook_outgoing_help')}
        </Typography>
        <Button variant="contained" startIcon={<MdiIcon path={mdiPlus} />} onClick={() => setCreating(true)} sx={{ flexShrink: 0 }}>
          {t('webhook_outgoing_create')}
        </Button>
      </Stack>
      {hooks.isPending && <CircularProgress aria-label={t('loading')} />}
      {hooks.isError && <Alert severity="error">{t('request_error_message')}</Alert>}
      {hooks.data?.length === 0 && <Alert severity="info">{t('webhook_none')}</Alert>}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        {hooks.data?.map((hook) => (
          <OutgoingCard key={hook._id} hook={hook} onDelete={() => setDeleting(hook)} onLog={() => setLog(hook)} />
        ))}
      </Box>
      <Divider />
      <AllowedHostsForm />
      {creating && <OutgoingCreateDialog onClose={() => setCreating(false)} />}
      {log && <DeliveriesDialog hook={log} onClose={() => setLog(null)} />}
      {deleting && (
        <ConfirmDeleteDialog
          name={deleting.title || deleting.url}
          busy={remove.isPending}
          onClose={() => setDeleting(null)}
          onConfirm={() =>
            remove.mutate(deleting._id, {
              onSuccess: () => {
                notify(t('request_success_message'));
                setDeleting(null);
              },
              onError: () => notify(t('request_failure_message'), 'error'),
            })
          }
        />
      )}
    </Stack>
  );
}

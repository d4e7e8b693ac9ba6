import type { IncomingWebhook } from '@bogwan/contracts';
import { mdiContentCopy, mdiDeleteOutline, mdiPlus } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CardHeader from '@mui/material/CardHeader';
import CircularProgress from '@mui/material/CircularProgress';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { useDeleteIncomingWebhook, useIncomingWebhooks } from '../api/incoming-webhooks';
import { ConfirmDeleteDialog } from './confirm-delete-dialog';
import { IncomingCreateDialog } from './incoming-create-dialog';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <>
      <Typography component="dt" variant="body2" sx={{ color: 'text.secondary' }}>
        {label}
      </Typography>
      <Typography component="dd" variant="body2" sx={{ m: 0, wordBreak: 'break-all' }}>
        {children}
      </Typography>
    </>
  );
}

function IncomingCard({ hook, onDelete }: { hook: IncomingWebhook; onDelete: () => void }) {
  const { t } = useTranslation();
  return (
    <Card variant="outlined" aria-label={hook.title}>
      <CardHeader
        title={hook.title}
        subheader={hook.description || undefined}
        slotProps={{ title: { variant: 'subtitle1', sx: { fontWeight: 700 } } }}
        action={
          <Tooltip title={t('delete')}>
            <IconButton aria-label={t('webhook_delete_of', { name: hook.title })} onClick={onDelete}>
              <MdiIcon path={mdiDeleteOutline} />
            </IconButton>
          </Tooltip>
        }
      />
      <CardContent sx={{ pt: 0 }}>
        <Box component="dl" sx={{ display: 'grid', gridTemplateColumns: 'minmax(6rem, max-content) 1fr', columnGap: 2, rowGap: 0.75, m: 0 }}>
          <Row label={t('webhook_url')}>
            <Box component="span" sx={{ fontFamily: 'monospace' }}>
              {hook.url}
            </Box>
            <IconButton
              size="small"
              aria-label={t('webhook_copy_url')}
              onClick={() => void navigator.clipboard?.writeText(hook.url).then(() => notify(t('webhook_url_copied')))}
            >
              <MdiIcon path={mdiContentCopy} fontSize="small" />
            </IconButton>
          </Row>
          <Row label={t('webhook_path')}>{hook.path}</Row>
          <Row label={t('webhook_created_at')}>{hook.createdAt.slice(0, 10)}</Row>
          <Row label={t('webhook_creator')}>{hook.userEmail || '-'}</Row>
        </Box>
      </CardContent>
    </Card>
  );
}

/** Settings → Integration → Incoming webhooks: cards, a create dialog, delete behind a confirmation. */
export function IncomingSection() {
  const { t } = useTranslation();
  const hooks = useIncomingWebhooks();
  const remove = useDeleteIncomingWebhook();
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<IncomingWebhook | null>(null);

  return (
    <Stack spacing={2}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', gap: 2 }}>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('webhook_incoming_help')}
        </Typography>
        <Button variant="contained" startIcon={<MdiIcon path={mdiPlus} />} onClick={() => setCreating(true)} sx={{ flexShrink: 0 }}>
          {t('webhook_incoming_create')}
        </Button>
      </Stack>
      {hooks.isPending && <CircularProgress aria-label={t('loading')} />}
      {hooks.isError && <Alert severity="error">{t('request_error_message')}</Alert>}
      {hooks.data?.length === 0 && <Alert severity="info">{t('webhook_none')}</Alert>}
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' } }}>
        {hooks.data?.map((hook) => (
          <IncomingCard key={hook._id} hook={hook} onDelete={() => setDeleting(hook)} />
        ))}
      </Box>
      {creating && <IncomingCreateDialog onClose={() => setCreating(false)} />}
      {deleting && (
        <ConfirmDeleteDialog
          name={deleting.title}
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

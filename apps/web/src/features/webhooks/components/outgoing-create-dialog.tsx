import { WEBHOOK_EVENTS, type WebhookEvent } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useCreateOutgoingWebhook } from '../api/outgoing-webhooks';
import { EVENT_LABELS } from './event-labels';

/** Subscribes a URL to events; afterwards shows the signing secret once. */
export function OutgoingCreateDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateOutgoingWebhook();
  const [title, setTitle] = useState('');
  const [url, setUrl] = useState('https://');
  const [events, setEvents] = useState<WebhookEvent[]>(['upload', 'delete']);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const urlOk = /^https?:\/\/[^/\s]+/.test(url.trim());

  const toggle = (event: WebhookEvent) => setEvents((current) => (current.includes(event) ? current.filter((e) => e !== event) : [...current, event]));
  const submit = () => {
    setError(null);
    create.mutate(
      { title: title.trim(), url: url.trim(), events },
      {
        onSuccess: (created) => {
          notify(t('request_success_message'));
          setSecret(created.secret);
        },
        onError: (cause) => {
          setError(messageText(t, cause instanceof ApiError ? cause.messageKey : null));
          notify(t('request_failure_message'), 'error');
        },
      },
    );
  };

  if (secret) {
    return (
      <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="outgoing-secret-title">
        <DialogTitle id="outgoing-secret-title">{t('webhook_secret_title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2}>
            <Alert severity="warning">{t('webhook_secret_once')}</Alert>
            <TextField label={t('webhook_secret')} value={secret} slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'webhook-secret' } }} fullWidth />
            <Typography variant="body2" sx={{ color: 'text.secondary' }}>
              {t('webhook_signature_help')}
            </Typography>
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button variant="contained" onClick={onClose}>
            {t('close')}
          </Button>
        </DialogActions>
      </Dialog>
    );
  }

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="outgoing-create-title">
      <DialogTitle id="outgoing-create-title">{t('webhook_outgoing_create')}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="outgoing-create-form"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            if (urlOk && events.length > 0) submit();
          }}
        >
          <TextField label={t('webhook_title')} value={title} onChange={(e) => setTitle(e.target.value)} fullWidth />
          <TextField
            label={t('webhook_target_url')}
            value={url}
            required
            onChange={(e) => setUrl(e.target.value)}
            error={error !== null}
            helperText={error ?? t('webhook_target_url_help')}
            slotProps={{ htmlInput: { spellCheck: false } }}
            fullWidth
          />
          <div>
            <FormLabel component="legend">{t('webhook_events')}</FormLabel>
            <FormGroup>
              {WEBHOOK_EVENTS.map((event) => (
                <FormControlLabel
                  key={event}
                  control={<Checkbox checked={events.includes(event)} onChange={() => toggle(event)} />}
                  label={t(EVENT_LABELS[event])}
                />
              ))}
            </FormGroup>
          </div>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button type="submit" form="outgoing-create-form" variant="contained" disabled={!urlOk || events.length === 0 || create.isPending}>
          {t('create')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useAllowedHosts, useSetAllowedHosts } from '../api/outgoing-webhooks';

/** Host names allowed as targets although they resolve to private addresses (one per line or comma). */
export function AllowedHostsForm() {
  const { t } = useTranslation();
  const allowed = useAllowedHosts();
  const save = useSetAllowedHosts();
  const current = (allowed.data?.hosts ?? []).join(', ');
  const [text, setText] = useState(current);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setText(current), [current]);
  const hosts = text
    .split(/[\s,]+/)
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);

  return (
    <Stack
      component="form"
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ alignItems: { sm: 'flex-start' } }}
      onSubmit={(event) => {
        event.preventDefault();
        setError(null);
        save.mutate(hosts, {
          onSuccess: () => notify(t('request_success_message')),
          onError: (cause) => {
            // An IP address among the hosts is refused with its own message.
            const message = messageText(t, cause instanceof ApiError ? cause.messageKey : null);
            setError(message);
            notify(message, 'error');
          },
        });
      }}
    >
      <TextField
        label={t('webhook_allowed_hosts')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        error={error !== null}
        helperText={error ?? t('webhook_allowed_hosts_help')}
        size="small"
        fullWidth
      />
      <Button type="submit" variant="outlined" disabled={save.isPending || hosts.join(', ') === current} sx={{ flexShrink: 0, mt: { sm: 0.25 } }}>
        {t('save')}
      </Button>
    </Stack>
  );
}

import { WEBHOOK_ACCESS_TOKEN_MIN, WEBHOOK_TOKEN_PATTERN, splitPath } from '@bogwan/contracts';
import { mdiDiceMultipleOutline } from '@mdi/js';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useCreateIncomingWebhook } from '../api/incoming-webhooks';
import { randomToken } from './confirm-delete-dialog';

/** Creates an incoming webhook: token, access token and folder path are required, each with a help text. */
export function IncomingCreateDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const create = useCreateIncomingWebhook();
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [token, setToken] = useState('');
  const [accessToken, setAccessToken] = useState('');
  const [path, setPath] = useState('/');
  const [serverError, setServerError] = useState<string | null>(null);
  const tokenOk = WEBHOOK_TOKEN_PATTERN.test(token);
  const accessOk = accessToken.length >= WEBHOOK_ACCESS_TOKEN_MIN;
  const pathOk = (splitPath(path.trim())?.length ?? 0) > 0;
  const ready = tokenOk && accessOk && pathOk;

  const generate = (fill: (value: string) => void, length: number, label: string) => (
    <InputAdornment position="end">
      <IconButton aria-label={label} onClick={() => fill(randomToken(length))} edge="end">
        <MdiIcon path={mdiDiceMultipleOutline} />
      </IconButton>
    </InputAdornment>
  );

  const submit = () => {
    if (!ready) return;
    setServerError(null);
    create.mutate(
      { title: title.trim(), description: description.trim(), token, accessToken, path: path.trim() },
      {
        onSuccess: () => {
          notify(t('request_success_message'));
          onClose();
        },
        onError: (cause) => {
          setServerError(messageText(t, cause instanceof ApiError ? cause.messageKey : null));
          notify(t('request_failure_message'), 'error');
        },
      },
    );
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="incoming-create-title">
      <DialogTitle id="incoming-create-title">{t('webhook_incoming_create')}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="incoming-create-form"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <TextField label={t('webhook_title')} value={title} onChange={(e) => setTitle(e.target.value)} helperText={t('webhook_title_help')} fullWidth />
          <TextField label={t('webhook_description')} value={description} onChange={(e) => setDescription(e.target.value)} fullWidth multiline minRows={2} />
          <TextField
            label={t('webhook_token')}
            value={token}
            required
            onChange={(e) => setToken(e.target.value)}
            error={token !== '' && !tokenOk}
            helperText={token !== '' && !tokenOk ? t('webhook_token_pattern') : t('webhook_token_help')}
            slotProps={{ input: { endAdornment: generate(setToken, 24, t('webhook_generate_token')) }, htmlInput: { spellCheck: false } }}
            fullWidth
          />
          <TextField
            label={t('webhook_access_token')}
            value={accessToken}
            required
            onChange={(e) => setAccessToken(e.target.value)}
            error={accessToken !== '' && !accessOk}
            helperText={accessToken !== '' && !accessOk ? t('webhook_access_token_length') : t('webhook_access_token_help')}
            slotProps={{ input: { endAdornment: generate(setAccessToken, 40, t('webhook_generate_access_token')) }, htmlInput: { spellCheck: false } }}
            fullWidth
          />
          <TextField
            label={t('webhook_path')}
            value={path}
            required
            onChange={(e) => setPath(e.target.value)}
            error={(path !== '/' && !pathOk) || serverError !== null}
            helperText={serverError ?? t('webhook_path_help')}
            fullWidth
          />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button type="submit" form="incoming-create-form" variant="contained" disabled={!ready || create.isPending}>
          {t('create')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useStorageSettings, useUpdateStorageSettings } from '../api/storage-settings';

/** Settings → Storage → Server storage: the directory where the server backend keeps file contents. */
export function ServerStorageSection() {
  const { t } = useTranslation();
  const settings = useStorageSettings();
  const update = useUpdateStorageSettings();
  const [path, setPath] = useState('');
  const [error, setError] = useState<string | null>(null);
  const saved = settings.data?.server.path ?? '';
  useEffect(() => setPath(saved), [saved]);

  if (settings.isPending) return <CircularProgress aria-label={t('loading')} />;
  if (settings.isError) return <Alert severity="error">{t('request_error_message')}</Alert>;

  const save = () => {
    setError(null);
    update.mutate(
      { server: { path: path.trim() } },
      {
        onSuccess: () => notify(t('request_success_message')),
        onError: (cause) => {
          const text = messageText(t, cause instanceof ApiError ? cause.messageKey : null);
          setError(text);
          notify(text, 'error');
        },
      },
    );
  };

  return (
    <Stack
      component="form"
      spacing={2}
      sx={{ maxWidth: 640 }}
      onSubmit={(event) => {
        event.preventDefault();
        save();
      }}
    >
      <Alert severity="info">{t('storage_server_help')}</Alert>
      <TextField
        label={t('storage_server_path')}
        value={path}
        onChange={(event) => setPath(event.target.value)}
        error={error !== null}
        helperText={error ?? t('storage_server_path_help')}
        slotProps={{ htmlInput: { spellCheck: false } }}
        fullWidth
      />
      <div>
        <Button type="submit" variant="contained" disabled={update.isPending || path.trim() === '' || path.trim() === saved}>
          {t('save')}
        </Button>
      </div>
    </Stack>
  );
}

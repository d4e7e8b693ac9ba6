import { mdiLock, mdiLockOpenVariant } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { MdiIcon } from '../../../components/mdi-icon';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useAdminMode } from '../../../state/admin-mode';
import { useStorageSettings, useUpdateStorageSettings } from '../api/storage-settings';

/** Settings → Storage → Cloud storage: the bucket of the cloud backend, read-only unless admin mode is on. */
export function CloudStorageSection() {
  const { t } = useTranslation();
  const adminMode = useAdminMode();
  const settings = useStorageSettings();
  const update = useUpdateStorageSettings();
  const [bucket, setBucket] = useState('');
  const [error, setError] = useState<string | null>(null);
  const saved = settings.data?.cloud.bucket ?? '';
  useEffect(() => setBucket(saved), [saved]);

  if (settings.isPending) return <CircularProgress aria-label={t('loading')} />;
  if (settings.isError) return <Alert severity="error">{t('request_error_message')}</Alert>;

  const save = () => {
    setError(null);
    update.mutate(
      { cloud: { bucket: bucket.trim() } },
      {
        onSuccess: () => notify(t('request_success_message')),
        onError: (cause) => {
          setError(messageText(t, cause instanceof ApiError ? cause.messageKey : null));
          notify(t('cloud_update_failed_message'), 'error');
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
        if (adminMode) save();
      }}
    >
      <Alert severity={adminMode ? 'warning' : 'info'} icon={<MdiIcon path={adminMode ? mdiLockOpenVariant : mdiLock} />}>
        {adminMode ? t('storage_cloud_unlocked') : t('storage_cloud_locked')}
      </Alert>
      <TextField
        label={t('storage_cloud_bucket')}
        value={bucket}
        onChange={(event) => setBucket(event.target.value)}
        error={error !== null}
        helperText={error ?? t('storage_cloud_bucket_help')}
        fullWidth
        slotProps={{
          htmlInput: { readOnly: !adminMode, spellCheck: false, 'aria-readonly': !adminMode },
          input: adminMode
            ? undefined
            : {
                endAdornment: (
                  <InputAdornment position="end">
                    <MdiIcon path={mdiLock} />
                  </InputAdornment>
                ),
              },
        }}
      />
      {adminMode && (
        <div>
          <Button type="submit" variant="contained" disabled={update.isPending || bucket.trim().length < 3 || bucket.trim() === saved}>
            {t('save')}
          </Button>
        </div>
      )}
    </Stack>
  );
}

import { LICENSE_KEY_ROWS } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { messageText } from '../../../i18n/keys';
import { useUpdateLicence } from '../api/update-licence';

interface LicenceKeyFormProps {
  /** Called after the server accepted the key. */
  onSaved?: () => void;
  autoFocus?: boolean;
}

/** The licence key field (4 rows) and its Save button, disabled while the field is empty. */
export function LicenceKeyForm({ onSaved, autoFocus = false }: LicenceKeyFormProps) {
  const { t } = useTranslation();
  const update = useUpdateLicence();
  const [key, setKey] = useState('');
  const filled = key.trim() !== '';

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!filled || update.isPending) return;
    update.mutate(
      { key: key.trim() },
      {
        onSuccess: () => {
          setKey('');
          onSaved?.();
        },
      },
    );
  };

  const errorKey = update.error instanceof ApiError ? update.error.messageKey : update.error ? '' : null;

  return (
    <Stack component="form" spacing={1.5} noValidate onSubmit={onSubmit}>
      <TextField
        label={t('license_key')}
        placeholder="BOGWAN1.…"
        value={key}
        onChange={(event) => {
          setKey(event.target.value);
          if (update.isError || update.isSuccess) update.reset();
        }}
        multiline
        rows={LICENSE_KEY_ROWS}
        autoFocus={autoFocus}
        fullWidth
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', wordBreak: 'break-all' } } }}
      />
      {errorKey !== null && <Alert severity="error">{messageText(t, errorKey)}</Alert>}
      {update.isSuccess && <Alert severity="success">{messageText(t, update.data.message)}</Alert>}
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button type="submit" variant="contained" disabled={!filled} loading={update.isPending}>
          {t('save')}
        </Button>
      </Stack>
    </Stack>
  );
}

import type { VolumeRow } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useSaveRootVersions } from '../api/version-settings';
import { useSetVolume } from '../api/volumes';
import { BYTE_UNIT_NAMES, type ByteUnit, fromBytes, toBytes } from '../lib/byte-units';
import { useFormatBytes } from '../../../lib/format-bytes';
import { RootVersionRetention, useRootRetentionDraft } from './root-version-retention';
import Divider from '@mui/material/Divider';

/**
 * Edits a root folder's limit (a number and a unit: Bytes … TB, base 1024, GB by default; empty
 * removes it) and its own version retention (each rule its own value, or the global one).
 */
export function VolumeLimitDialog({ row, onClose }: { row: VolumeRow; onClose: () => void }) {
  const { t } = useTranslation();
  const formatBytes = useFormatBytes();
  const initial = fromBytes(row.volume);
  const [amount, setAmount] = useState(initial.amount);
  const [unit, setUnit] = useState<ByteUnit>(initial.unit);
  const setVolume = useSetVolume();
  const retention = useRootRetentionDraft(row.path);
  const saveRetention = useSaveRootVersions();
  const bytes = amount.trim() === '' ? null : toBytes(amount, unit);
  const invalid = amount.trim() !== '' && bytes === null;
  const belowUsage = bytes !== null && bytes < row.usage;

  const save = async () => {
    if (invalid || retention.request === undefined) return;
    try {
      if (bytes !== row.volume) await setVolume.mutateAsync({ path: row.path, volume: bytes });
      if (retention.request) await saveRetention.mutateAsync(retention.request);
      notify(t('request_success_message'));
      onClose();
    } catch (cause) {
      notify(messageText(t, cause instanceof ApiError ? cause.messageKey : null), 'error');
    }
  };

  return (
    <Dialog open onClose={onClose} maxWidth="xs" fullWidth aria-labelledby="volume-limit-title">
      <DialogTitle id="volume-limit-title">{t('volume_edit_title', { name: row.name })}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="volume-limit-form"
          spacing={2}
          sx={{ pt: 1 }}
          onSubmit={(event) => {
            event.preventDefault();
            void save();
          }}
        >
          <Stack direction="row" spacing={1}>
            <TextField
              label={t('volume_limit_amount')}
              value={amount}
              onChange={(event) => setAmount(event.target.value)}
              error={invalid}
              helperText={invalid ? t('volume_limit_invalid') : t('volume_limit_help')}
              slotProps={{ htmlInput: { inputMode: 'decimal' } }}
              autoFocus
              fullWidth
            />
            <TextField select label={t('volume_limit_unit')} value={unit} onChange={(event) => setUnit(event.target.value as ByteUnit)} sx={{ minWidth: 110 }}>
              {BYTE_UNIT_NAMES.map((name) => (
                <MenuItem key={name} value={name}>
                  {name}
                </MenuItem>
              ))}
            </TextField>
          </Stack>
          {belowUsage && <Alert severity="warning">{t('volume_limit_below_usage', { usage: formatBytes(row.usage) })}</Alert>}
          <Divider />
          <RootVersionRetention draft={retention} />
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button
          type="submit"
          form="volume-limit-form"
          variant="contained"
          disabled={invalid || retention.request === undefined || setVolume.isPending || saveRetention.isPending}
        >
          {t('save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import { checkFolderName, type SyncMode, type VolumeRow } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { k, messageText } from '../../../i18n/keys';
import { useStartSync } from '../api/volumes';

const BACKEND_LABELS = { server: k('storage_backend_server'), cloud: k('storage_backend_cloud') } as const;

/** Starts moving a root folder to the other backend, or copying it into a new root folder there. */
export function SyncDialog({ row, onClose }: { row: VolumeRow; onClose: () => void }) {
  const { t } = useTranslation();
  const target = row.backend === 'server' ? 'cloud' : 'server';
  const [mode, setMode] = useState<SyncMode>('move');
  const [name, setName] = useState(`${row.name} ${target}`);
  const start = useStartSync();
  const nameError = mode === 'copy' ? checkFolderName(name) : null;

  const submit = () => {
    if (nameError) return;
    start.mutate(
      { path: row.path, mode, ...(mode === 'copy' ? { name: name.trim() } : {}) },
      {
        onSuccess: () => {
          notify(t('sync_started_message'));
          onClose();
        },
        onError: (cause) => notify(messageText(t, cause instanceof ApiError ? cause.messageKey : null), 'error'),
      },
    );
  };

  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth aria-labelledby="sync-title">
      <DialogTitle id="sync-title">{t('sync_title', { name: row.name, target: t(BACKEND_LABELS[target]) })}</DialogTitle>
      <DialogContent>
        <Stack
          component="form"
          id="sync-form"
          spacing={2}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <RadioGroup value={mode} onChange={(event) => setMode(event.target.value as SyncMode)} aria-label={t('sync_mode')}>
            <FormControlLabel value="move" control={<Radio />} label={t('sync_mode_move')} />
            <FormControlLabel value="copy" control={<Radio />} label={t('sync_mode_copy')} />
          </RadioGroup>
          {mode === 'copy' && (
            <TextField
              label={t('sync_copy_name')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={nameError !== null}
              helperText={nameError ? t(nameError) : t('sync_copy_name_help')}
              fullWidth
            />
          )}
          <Alert severity="info">{mode === 'move' ? t('sync_move_help') : t('sync_copy_help')}</Alert>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button type="submit" form="sync-form" variant="contained" disabled={nameError !== null || start.isPending}>
          {t('sync_start')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import { checkFolderName, type Backend } from '@bogwan/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../api/client';
import { notify } from '../../../../components/notify';
import { messageText } from '../../../../i18n/keys';
import { useCreateFolder } from '../../api/create-folder';

export interface CreateFolderDialogProps {
  open: boolean;
  /** Parent folder; '/' creates a root folder (administrators). */
  parentPath: string;
  onClose: () => void;
  onCreated?: (path: string) => void;
}

/** New folder: the name must pass the folder rule, otherwise the rule shows and Create stays disabled. */
export function CreateFolderDialog({ open, parentPath, onClose, onCreated }: CreateFolderDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [touched, setTouched] = useState(false);
  const [backend, setBackend] = useState<Backend>('server');
  const create = useCreateFolder();
  const root = parentPath === '/';

  useEffect(() => {
    if (open) {
      setName('');
      setTouched(false);
      setBackend('server');
    }
  }, [open]);

  const rule = checkFolderName(name);
  const submit = () => {
    if (rule || create.isPending) return;
    const trimmed = name.trim();
    create.mutate(
      { path: parentPath, name: trimmed, ...(root ? { backend } : {}) },
      {
        onSuccess: () => {
          notify(t('create_folder_complete_message'), 'success');
          onCreated?.(root ? `/${trimmed}` : `${parentPath}/${trimmed}`);
          onClose();
        },
        onError: (error) => {
          const forbidden = error instanceof ApiError && error.status === 403;
          notify(messageText(t, error instanceof ApiError ? error.messageKey : null), forbidden ? 'warning' : 'error');
        },
      },
    );
  };

  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <DialogTitle>{root ? t('create_root_folder') : t('create_folder')}</DialogTitle>
        <DialogContent>
          {root && (
            <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1 }}>
              {t('create_root_folder_description')}
            </Typography>
          )}
          <TextField
            autoFocus
            fullWidth
            margin="dense"
            label={t('folder_name')}
            value={name}
            onChange={(event) => {
              setName(event.target.value);
              setTouched(true);
            }}
            error={touched && rule !== null}
            helperText={touched && rule ? t(rule) : ' '}
            slotProps={{ htmlInput: { maxLength: 255 } }}
          />
          {root && (
            <RadioGroup row value={backend} onChange={(event) => setBackend(event.target.value as Backend)} aria-label={t('storage_backend')}>
              <FormControlLabel value="server" control={<Radio />} label={t('storage_backend_server')} />
              <FormControlLabel value="cloud" control={<Radio />} label={t('storage_backend_cloud')} />
            </RadioGroup>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={rule !== null || create.isPending}>
            {t('create')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

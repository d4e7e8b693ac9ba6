import { checkFolderName, isValidFileName, type FileEntry } from '@bogwan/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../api/client';
import { notify } from '../../../../components/notify';
import { messageText } from '../../../../i18n/keys';
import { useRenameItem } from '../../api/rename-item';

/** Rename a file (any name without `/`, `\` or control characters) or a folder (the folder rule). */
export function RenameDialog({ entry, onClose }: { entry: FileEntry | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const rename = useRenameItem();
  const input = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (!entry) return;
    setName(entry.name);
    // Select the name without its extension, as file managers do.
    const dot = entry.folder ? -1 : entry.name.lastIndexOf('.');
    requestAnimationFrame(() => input.current?.setSelectionRange(0, dot > 0 ? dot : entry.name.length));
  }, [entry]);

  const trimmed = name.trim();
  const rule = entry?.folder ? checkFolderName(name) : isValidFileName(trimmed) ? null : 'rename_invalid_name';
  const unchanged = trimmed === entry?.name;

  const submit = () => {
    if (!entry || rule || unchanged) return;
    rename.mutate(
      { path: entry.path, name: entry.name, newName: trimmed },
      {
        onSuccess: () => {
          notify(t('rename_complete_message'), 'success');
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
    <Dialog open={entry !== null} onClose={onClose} maxWidth="xs" fullWidth>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <DialogTitle>{t('rename')}</DialogTitle>
        <DialogContent>
          <TextField
            inputRef={input}
            autoFocus
            fullWidth
            margin="dense"
            label={t('new_name')}
            value={name}
            onChange={(event) => setName(event.target.value)}
            error={rule !== null}
            helperText={rule === 'rename_invalid_name' ? t('rename_invalid_name') : rule ? t(rule) : ' '}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('cancel')}</Button>
          <Button type="submit" variant="contained" disabled={rule !== null || unchanged || rename.isPending}>
            {t('rename')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

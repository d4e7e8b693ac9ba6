import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FolderTree } from '../tree/folder-tree';

export interface FolderPickerDialogProps {
  open: boolean;
  title: string;
  confirmLabel: string;
  /** A line above the tree. */
  message?: ReactNode;
  initialPath?: string | null;
  /** Confirm stays disabled (no files to upload, for instance). */
  confirmDisabled?: boolean;
  isDisabled?: (path: string) => boolean;
  onConfirm: (path: string) => void;
  onClose: () => void;
}

/** Picks a folder from the tree: the target of a move or copy, or where dropped files go. */
export function FolderPickerDialog({
  open,
  title,
  confirmLabel,
  message,
  initialPath = null,
  confirmDisabled,
  isDisabled,
  onConfirm,
  onClose,
}: FolderPickerDialogProps) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<string | null>(initialPath);
  useEffect(() => {
    if (open) setPicked(initialPath);
  }, [open, initialPath]);
  const blocked = picked === null || Boolean(picked && isDisabled?.(picked));

  return (
    <Dialog open={open} onClose={onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      <DialogContent>
        {message && (
          <Typography variant="body2" sx={{ color: 'text.secondary', mb: 1.5 }}>
            {message}
          </Typography>
        )}
        <Box sx={{ border: 1, borderColor: 'divider', borderRadius: 1, height: 320, overflow: 'auto' }}>
          <FolderTree label={title} selectedPath={picked} revealPath={initialPath} onSelect={setPicked} isDisabled={isDisabled} />
        </Box>
        <Typography variant="body2" sx={{ mt: 1, color: 'text.secondary' }} noWrap>
          {t('selected_folder')}: {picked ?? '—'}
        </Typography>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" disabled={blocked || confirmDisabled} onClick={() => picked && onConfirm(picked)}>
          {confirmLabel}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import { REQUEST_REASON_MAX_LENGTH } from '@bogwan/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Asks the reason of a rejection (required), then rejects. */
export function RejectDialog({ open, busy, onClose, onReject }: { open: boolean; busy: boolean; onClose: () => void; onReject: (reason: string) => void }) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  useEffect(() => {
    if (open) setReason('');
  }, [open]);
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{t('request_reject')}</DialogTitle>
      <DialogContent>
        <TextField
          label={t('request_reject_reason')}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
          multiline
          minRows={3}
          fullWidth
          autoFocus
          required
          sx={{ mt: 1 }}
          slotProps={{ htmlInput: { maxLength: REQUEST_REASON_MAX_LENGTH } }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button color="error" variant="contained" disabled={reason.trim().length === 0 || busy} onClick={() => onReject(reason.trim())}>
          {t('request_reject')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

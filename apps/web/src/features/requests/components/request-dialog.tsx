import { REQUEST_DOWNLOAD_LIMIT_MAX, REQUEST_REASON_MAX_LENGTH, type RequestType } from '@bogwan/contracts';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { notify } from '../../../components/notify';
import { messageText } from '../../../i18n/keys';
import { useCreateRequest } from '../api/create-request';

export interface RequestDialogProps {
  /** The request to make, or null when closed. */
  request: { type: RequestType; paths: string[] } | null;
  onClose: () => void;
}

/** Asks the security managers to approve a download (with a download limit) or a share link of paths in a secure folder. */
export function RequestDialog({ request, onClose }: RequestDialogProps) {
  const { t } = useTranslation();
  const create = useCreateRequest();
  const [reason, setReason] = useState('');
  const [limit, setLimit] = useState('1');
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (request) {
      setReason('');
      setLimit('1');
      setError(null);
    }
  }, [request]);

  const limitValue = Number(limit);
  const limitValid = Number.isInteger(limitValue) && limitValue >= 1 && limitValue <= REQUEST_DOWNLOAD_LIMIT_MAX;
  const canSend = reason.trim().length > 0 && (request?.type !== 'download' || limitValid) && !create.isPending;

  const send = () => {
    if (!request || !canSend) return;
    create.mutate(
      { type: request.type, paths: request.paths, reason: reason.trim(), ...(request.type === 'download' ? { downloadLimit: limitValue } : {}) },
      {
        onSuccess: () => {
          notify(t('request_sent_message'), 'success');
          onClose();
        },
        onError: (failure) => setError(messageText(t, failure instanceof ApiError ? failure.messageKey : null)),
      },
    );
  };

  return (
    <Dialog open={request !== null} onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{request?.type === 'share' ? t('request_share_title') : t('request_download_title')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('request_dialog_hint')}
          </Typography>
          <Typography variant="body2" component="div" sx={{ fontFamily: 'monospace', wordBreak: 'break-all' }}>
            {request?.paths.map((path) => (
              <div key={path}>{path}</div>
            ))}
          </Typography>
          <TextField
            label={t('request_reason')}
            value={reason}
            onChange={(event) => setReason(event.target.value)}
            multiline
            minRows={3}
            required
            autoFocus
            slotProps={{ htmlInput: { maxLength: REQUEST_REASON_MAX_LENGTH } }}
          />
          {request?.type === 'download' && (
            <TextField
              label={t('request_download_limit')}
              type="number"
              value={limit}
              onChange={(event) => setLimit(event.target.value)}
              error={!limitValid}
              helperText={t('request_download_limit_hint', { max: REQUEST_DOWNLOAD_LIMIT_MAX })}
              slotProps={{ htmlInput: { min: 1, max: REQUEST_DOWNLOAD_LIMIT_MAX } }}
            />
          )}
          {error && (
            <Typography role="alert" variant="body2" sx={{ color: 'error.main' }}>
              {error}
            </Typography>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('cancel')}</Button>
        <Button variant="contained" onClick={send} disabled={!canSend}>
          {t('request_send')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { mdiClose, mdiKeyAlert } from '@mdi/js';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import { LicenceKeyForm } from './licence-key-form';
import { useFullScreenDialog } from '../../../components/use-full-screen-dialog';

interface LicenceDialogProps {
  open: boolean;
  /** This installation's id, which the key must name; shown so it can be sent to the vendor. */
  serverId: string | undefined;
  /** The close button: the caller leaves for the sign-in page. */
  onClose: () => void;
  onSaved: () => void;
}

/** Asks for a licence key while the installation needs one. */
export function LicenceDialog({ open, serverId, onClose, onSaved }: LicenceDialogProps) {
  const { t } = useTranslation();
  const fullScreen = useFullScreenDialog();

  return (
    <Dialog
      open={open}
      fullScreen={fullScreen}
      fullWidth
      maxWidth="sm"
      aria-labelledby="licence-dialog-title"
      onClose={(_event, reason) => {
        if (reason === 'escapeKeyDown') onClose();
      }}
    >
      <DialogTitle id="licence-dialog-title" sx={{ display: 'flex', alignItems: 'center', gap: 1, pr: 6 }}>
        <MdiIcon path={mdiKeyAlert} color="warning" />
        {t('license_dialog_title')}
      </DialogTitle>
      <IconButton aria-label={t('close')} onClick={onClose} sx={{ position: 'absolute', right: 8, top: 8 }}>
        <MdiIcon path={mdiClose} />
      </IconButton>
      <DialogContent>
        <Stack spacing={2}>
          <div>
            <Typography variant="body1" sx={{ fontWeight: 600 }}>
              {t('invalid_license_message1')}
            </Typography>
            <Typography variant="body2" sx={{ color: 'text.secondary', mt: 0.5 }}>
              {t('invalid_license_message2')}
            </Typography>
          </div>
          {serverId && (
            <Box sx={{ bgcolor: 'action.hover', borderRadius: 1, px: 1.5, py: 1 }}>
              <Typography variant="caption" sx={{ color: 'text.secondary', display: 'block' }}>
                {t('license_server_id')}
              </Typography>
              <Typography variant="body2" sx={{ fontFamily: 'monospace', userSelect: 'all', wordBreak: 'break-all' }}>
                {serverId}
              </Typography>
            </Box>
          )}
          <LicenceKeyForm onSaved={onSaved} autoFocus />
        </Stack>
      </DialogContent>
    </Dialog>
  );
}

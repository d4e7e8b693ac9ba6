import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { CopyableValue } from '../../../../components/copy-button';
import { k } from '../../../../i18n/keys';
import { useAuth } from '../../../../state/auth';
import { openSettings } from '../../../../state/settings';
import { davAddress } from '../../lib/dav-address';
import { useFullScreenDialog } from '../../../../components/use-full-screen-dialog';

const CLIENTS = [
  { title: 'Windows', steps: k('connect_drive_windows_steps') },
  { title: 'macOS', steps: k('connect_drive_macos_steps') },
  { title: 'Linux', steps: k('connect_drive_linux_steps') },
  { title: 'rclone', steps: k('connect_drive_rclone_steps') },
] as const;

interface ConnectDriveDialogProps {
  open: boolean;
  /** The storage folder to connect ('/' for every root folder). */
  path: string;
  onClose: () => void;
}

/** "Connect as a drive": the folder's WebDAV address and short steps per client; sign-in is by app password. */
export function ConnectDriveDialog({ open, path, onClose }: ConnectDriveDialogProps) {
  const { t } = useTranslation();
  const auth = useAuth();
  const fullScreen = useFullScreenDialog();
  const address = davAddress(window.location.origin, path);
  const email = auth?.user.email ?? '';

  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullScreen={fullScreen}
      maxWidth={false}
      aria-labelledby="connect-drive-title"
      slotProps={{ paper: { sx: fullScreen ? undefined : { width: 600 } } }}
    >
      <DialogTitle id="connect-drive-title">{t('connect_drive')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2}>
          <Typography variant="body2">{t('connect_drive_intro')}</Typography>
          <CopyableValue label={t('dav_address')} value={address} copyLabel={t('dav_address_copy')} data-testid="dav-address" />
          <CopyableValue label={t('dav_user_name')} value={email} copyLabel={t('dav_user_name_copy')} />
          <Alert
            severity="info"
            action={
              <Button
                color="inherit"
                size="small"
                sx={{ whiteSpace: 'nowrap' }}
                onClick={() => {
                  onClose();
                  openSettings('security');
                }}
              >
                {t('connect_drive_make_password')}
              </Button>
            }
          >
            {t('connect_drive_password_note')}
          </Alert>
          {CLIENTS.map((client) => (
            <Box key={client.title}>
              <Typography variant="subtitle2" component="h3">
                {client.title}
              </Typography>
              <Typography
                variant="body2"
                component="div"
                sx={{ color: 'text.secondary', whiteSpace: 'pre-line', wordBreak: 'keep-all', overflowWrap: 'anywhere' }}
              >
                {t(client.steps, { address, email })}
              </Typography>
            </Box>
          ))}
          <Typography variant="body2" sx={{ color: 'text.secondary' }}>
            {t('connect_drive_https_note')}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions sx={{ px: 3, pb: 2.5 }}>
        <Button variant="contained" onClick={onClose}>
          {t('close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

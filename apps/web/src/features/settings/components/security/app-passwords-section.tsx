import type { AppPassword } from '@bogwan/contracts';
import { mdiKeyChainVariant } from '@mdi/js';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../../api/client';
import { CopyableValue } from '../../../../components/copy-button';
import { notify } from '../../../../components/notify';
import { formatDateTime } from '../../../../i18n/format-time';
import { messageText } from '../../../../i18n/keys';
import { useLocale } from '../../../../i18n/use-locale';
import { useAppPasswords, useRevokeAppPassword } from '../../api/app-passwords';
import { NewAppPasswordDialog, davRootAddress } from './new-app-password-dialog';
import { SettingRow } from './setting-row';

/** Settings → Security → App passwords: what WebDAV clients (drives, rclone, office apps) sign in with. */
export function AppPasswordsSection({ email }: { email: string }) {
  const { t } = useTranslation();
  const passwords = useAppPasswords();
  const [creating, setCreating] = useState(false);
  const [revoking, setRevoking] = useState<AppPassword | null>(null);

  let list;
  if (passwords.isPending) {
    list = (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 3 }}>
        <CircularProgress aria-label={t('loading')} size={28} />
      </Box>
    );
  } else if (passwords.isError) {
    list = (
      <Alert
        severity="error"
        sx={{ mt: 2 }}
        action={
          <Button color="inherit" size="small" onClick={() => void passwords.refetch()}>
            {t('retry')}
          </Button>
        }
      >
        {messageText(t, passwords.error instanceof ApiError ? passwords.error.messageKey : null)}
      </Alert>
    );
  } else if (passwords.data.length === 0) {
    list = (
      <Typography variant="body2" sx={{ mt: 2, color: 'text.secondary' }}>
        {t('app_passwords_empty')}
      </Typography>
    );
  } else {
    list = (
      <List aria-label={t('app_passwords')} disablePadding sx={{ mt: 1.5, border: 1, borderColor: 'divider', borderRadius: 2 }}>
        {passwords.data.map((password, index) => (
          <AppPasswordItem key={password._id} password={password} divider={index < passwords.data.length - 1} onRevoke={() => setRevoking(password)} />
        ))}
      </List>
    );
  }

  return (
    <>
      <SettingRow
        icon={mdiKeyChainVariant}
        title={t('app_passwords')}
        description={t('app_passwords_description')}
        action={
          <Button variant="outlined" onClick={() => setCreating(true)}>
            {t('app_password_new')}
          </Button>
        }
      >
        <Box sx={{ display: 'grid', gap: 1.5, gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, mt: 2 }}>
          <CopyableValue label={t('dav_address')} value={davRootAddress()} copyLabel={t('dav_address_copy')} />
          <CopyableValue label={t('dav_user_name')} value={email} copyLabel={t('dav_user_name_copy')} />
        </Box>
        {list}
      </SettingRow>
      <NewAppPasswordDialog open={creating} email={email} onClose={() => setCreating(false)} />
      <RevokeDialog password={revoking} onClose={() => setRevoking(null)} />
    </>
  );
}

function AppPasswordItem({ password, divider, onRevoke }: { password: AppPassword; divider: boolean; onRevoke: () => void }) {
  const { t } = useTranslation();
  const locale = useLocale();
  const lastUse = password.lastUsedAt
    ? t('app_password_last_used', { time: formatDateTime(password.lastUsedAt, locale), address: password.lastUsedIp ?? '-' })
    : t('app_password_never_used');
  return (
    <ListItem divider={divider} sx={{ gap: 2, flexWrap: { xs: 'wrap', sm: 'nowrap' }, alignItems: 'center' }}>
      <Box sx={{ flexGrow: 1, minWidth: 0 }}>
        <Typography sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}>{password.name}</Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {t('app_password_created_at', { time: formatDateTime(password.createdAt, locale) })}
        </Typography>
        <Typography variant="body2" sx={{ color: 'text.secondary' }}>
          {lastUse}
        </Typography>
      </Box>
      <Button color="error" variant="text" onClick={onRevoke} aria-label={t('app_password_revoke_named', { name: password.name })}>
        {t('app_password_revoke')}
      </Button>
    </ListItem>
  );
}

/** Asks before revoking: clients using the password stop at once. */
function RevokeDialog({ password, onClose }: { password: AppPassword | null; onClose: () => void }) {
  const { t } = useTranslation();
  const revoke = useRevokeAppPassword();
  const confirm = () => {
    if (!password) return;
    revoke.mutate(password._id, {
      onSuccess: () => {
        notify(t('app_password_revoked'));
        onClose();
      },
      onError: (error) => notify(messageText(t, error instanceof ApiError ? error.messageKey : null), 'error'),
    });
  };
  return (
    <Dialog open={password !== null} onClose={revoke.isPending ? undefined : onClose} maxWidth="xs" fullWidth aria-labelledby="revoke-app-password-title">
      <DialogTitle id="revoke-app-password-title">{t('app_password_revoke_title')}</DialogTitle>
      <DialogContent>
        <DialogContentText>{t('app_password_revoke_message', { name: password?.name ?? '' })}</DialogContentText>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} disabled={revoke.isPending}>
          {t('cancel')}
        </Button>
        <Button color="error" variant="contained" onClick={confirm} loading={revoke.isPending} autoFocus>
          {t('app_password_revoke')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

import { TOAST_DURATION_MS } from '@bogwan/contracts';
import Alert from '@mui/material/Alert';
import Snackbar from '@mui/material/Snackbar';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { ApiError, setLicenceRequiredHandler } from '../../../api/client';
import { useLocalePath } from '../../../i18n/use-locale';
import { authStore, useAuth } from '../../../state/auth';
import { licenceCheckQueryOptions, useLicenceCheck } from '../api/get-licence-check';
import { useLicencePoll } from '../api/get-licence';
import { allowLicenceDialog, closeLicenceDialog, dismissLicenceDialog, openLicenceDialog, useLicenceDialogState } from '../hooks/licence-dialog-state';
import { Deferred } from '../../../components/deferred';

// Needed only while a key is missing: its code loads when it first opens.
const LicenceDialog = lazy(() => import('./licence-dialog').then((m) => ({ default: m.LicenceDialog })));

interface LicenceGateProps {
  /** Ends the session (the dialog's close button signs out before it goes to sign-in). */
  signOut: () => Promise<void>;
}

/**
 * The licence gate of the web app, mounted once for every page: asks on start whether a
 * key is needed, polls the licence while it is, opens the dialog on any 403
 * `license_required` and closes it when the licence is good again.
 */
export function LicenceGate({ signOut }: LicenceGateProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const dialog = useLicenceDialogState();
  const token = useAuth()?.token ?? null;
  const check = useLicenceCheck();
  const required = check.data?.isVerifyLicenseRequired === true;
  const poll = useLicencePoll(required);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    setLicenceRequiredHandler(() => {
      openLicenceDialog();
      void queryClient.invalidateQueries({ queryKey: licenceCheckQueryOptions.queryKey });
    });
    return () => setLicenceRequiredHandler(() => {});
  }, [queryClient]);

  // A new session may need the dialog again, even after it was dismissed on sign-in.
  useEffect(() => {
    if (token) allowLicenceDialog();
  }, [token]);

  useEffect(() => {
    if (check.data && !check.data.isVerifyLicenseRequired) closeLicenceDialog();
  }, [check.data]);

  // The poll succeeding means a key was saved (here or elsewhere). Any other refusal than
  // license_required (not signed in, not an administrator) asks the check again.
  const pollError = poll.error instanceof ApiError ? poll.error.messageKey : null;
  useEffect(() => {
    if (poll.isSuccess) closeLicenceDialog();
  }, [poll.isSuccess, poll.dataUpdatedAt]);
  useEffect(() => {
    if (pollError && pollError !== 'license_required') {
      void queryClient.invalidateQueries({ queryKey: licenceCheckQueryOptions.queryKey });
    }
  }, [pollError, poll.errorUpdatedAt, queryClient]);

  const onClose = () => {
    dismissLicenceDialog();
    const leave = () => void navigate(localePath('/auth/login'));
    if (authStore.get()) void signOut().finally(leave);
    else leave();
  };

  const onSaved = () => {
    closeLicenceDialog();
    setSaved(true);
    // Everything that failed with 403 while the key was missing is asked again.
    void queryClient.invalidateQueries();
  };

  return (
    <>
      <Deferred open={dialog === 'open'}>
        <LicenceDialog open={dialog === 'open'} serverId={check.data?.serverId} onClose={onClose} onSaved={onSaved} />
      </Deferred>
      <Snackbar open={saved} autoHideDuration={TOAST_DURATION_MS} onClose={() => setSaved(false)} anchorOrigin={{ vertical: 'top', horizontal: 'center' }}>
        <Alert severity="success" variant="filled" onClose={() => setSaved(false)}>
          {t('license_update_complete_message')}
        </Alert>
      </Snackbar>
    </>
  );
}

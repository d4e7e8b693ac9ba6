import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useLocale } from '../../../i18n/use-locale';
import { authStore, isUsableSession, useAuth } from '../../../state/auth';
import { withLocale } from '../../../state/locale';
import { closeSettings, openSettings, useSettingsOpen } from '../../../state/settings';

// The dialog's code arrives the first time it is opened.
const SettingsDialog = lazy(() => import('../../settings-dialog').then((m) => ({ default: m.SettingsDialog })));

/** Opens settings; with no signed-in user, settings lead to sign-in. */
export function useOpenSettings(): () => void {
  const navigate = useNavigate();
  const locale = useLocale();
  return useCallback(() => {
    if (isUsableSession(authStore.get())) openSettings();
    else void navigate(withLocale(locale, '/auth/login'));
  }, [navigate, locale]);
}

/** The settings dialog, mounted from its first opening on (so closing can animate). */
export function SettingsDialogSlot() {
  const open = useSettingsOpen();
  const auth = useAuth();
  const [mounted, setMounted] = useState(open);

  useEffect(() => {
    if (open) setMounted(true);
  }, [open]);

  // Signed out with the dialog open: it does not come back for the next user.
  useEffect(() => {
    if (!auth) closeSettings();
  }, [auth]);

  if (!mounted) return null;
  return (
    <Suspense fallback={null}>
      <SettingsDialog open={open} />
    </Suspense>
  );
}

import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { LoginLayout } from '../../app/layouts/login-layout';
import { SignInPanel } from '../../features/auth/components/sign-in-panel';
import { useLocalePath } from '../../i18n/use-locale';
import { authStore, isUsableSession } from '../../state/auth';

/** /auth/login: first-run setup or sign-in; a signed-in user goes straight home. */
export function AuthLoginRoute() {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  // Only a visitor who arrives signed in is sent away at once; after signing in here the
  // form navigates, and this page stays visible while the next page loads.
  const [signedInOnArrival] = useState(() => isUsableSession(authStore.get()));

  useEffect(() => {
    document.title = `${t('login_title')} · ${t('app_title')}`;
  }, [t]);

  if (signedInOnArrival) return <Navigate to={localePath('/')} replace />;
  return (
    <LoginLayout>
      <SignInPanel />
    </LoginLayout>
  );
}

import type { Locale } from '@bogwan/contracts';
import { lazy, Suspense, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useLogout } from '../features/auth/api/logout';
import { LicenceGate } from '../features/licence/components/licence-gate';
import { applyLocale } from '../i18n';
import { signInHref } from '../lib/return-path';
import { useLocale } from '../i18n/use-locale';
import { clearAuth, isUsableSession, useAuth } from '../state/auth';
import { withLocale } from '../state/locale';

/**
 * Root of one locale's routes: keeps the interface language and `<html lang>` in step with
 * the URL, and holds the licence gate, which every page (sign-in included) needs.
 */
export function LocaleRoot({ locale }: { locale: Locale }) {
  useEffect(() => void applyLocale(locale), [locale]);
  const logout = useLogout();
  return (
    <>
      <Outlet />
      <LicenceGate signOut={logout} />
    </>
  );
}

// Needed only by accounts that still have the initial password: its code loads on demand.
const RequiredPasswordChange = lazy(() => import('./required-password-change').then((m) => ({ default: m.RequiredPasswordChange })));

/** Lets only a signed-in, ACTIVE user through; anyone else goes to sign-in of the same locale, and back here after. */
export function RequireAuth() {
  const auth = useAuth();
  const locale = useLocale();
  const usable = isUsableSession(auth);
  const location = useLocation();

  useEffect(() => {
    if (auth && !usable) clearAuth();
  }, [auth, usable]);

  // Sign-in comes back to the page asked for.
  if (!usable) return <Navigate to={withLocale(locale, signInHref(`${location.pathname}${location.search}${location.hash}`))} replace />;
  // The initial password must be replaced before anything else (the server insists too).
  if (auth.user.mustChangePassword) {
    return (
      <Suspense fallback={null}>
        <RequiredPasswordChange />
      </Suspense>
    );
  }
  return <Outlet />;
}

/** Administration pages need roleLevel above 1; others are sent home. */
export function RequireAdmin() {
  const auth = useAuth();
  const locale = useLocale();
  if (!auth || auth.user.roleLevel <= 1) return <Navigate to={withLocale(locale, '/')} replace />;
  return <Outlet />;
}

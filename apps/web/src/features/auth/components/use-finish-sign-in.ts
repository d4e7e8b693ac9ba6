import type { AuthResponse } from '@bogwan/contracts';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useLocalePath } from '../../../i18n/use-locale';
import { RETURN_PARAM, safeReturnPath } from '../../../lib/return-path';
import { setAuth } from '../../../state/auth';

/**
 * Stores user and token and goes where the user was going (the sign-in page's `next`,
 * same-origin paths only), else to the home page, in the current locale.
 */
export function useFinishSignIn(): (auth: AuthResponse) => void {
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [params] = useSearchParams();
  const returnTo = safeReturnPath(params.get(RETURN_PARAM)) ?? '/';
  return useCallback(
    (auth: AuthResponse) => {
      setAuth(auth);
      void navigate(localePath(returnTo), { replace: true });
    },
    [navigate, localePath, returnTo],
  );
}

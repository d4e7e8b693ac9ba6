import type { AuthResponse } from '@bogwan/contracts';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useLocalePath } from '../../../i18n/use-locale';
import { setAuth } from '../../../state/auth';

/** Stores user and token and goes to the home page of the current locale. */
export function useFinishSignIn(): (auth: AuthResponse) => void {
  const navigate = useNavigate();
  const localePath = useLocalePath();
  return useCallback(
    (auth: AuthResponse) => {
      setAuth(auth);
      void navigate(localePath('/'), { replace: true });
    },
    [navigate, localePath],
  );
}

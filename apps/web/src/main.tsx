import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { setSessionEndedHandler } from './api/client';
import { Providers } from './app/providers';
import { router } from './app/router';
import './i18n';
import { localeFromPath, withLocale } from './state/locale';

// The session has ended (refresh refused, or a fresh token refused): continue at sign-in, in the same language.
setSessionEndedHandler(() => {
  const locale = localeFromPath(window.location.pathname);
  void router.navigate(withLocale(locale, '/auth/login'), { replace: true });
});

const container = document.getElementById('root');
if (!container) throw new Error('missing #root element');

createRoot(container).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);

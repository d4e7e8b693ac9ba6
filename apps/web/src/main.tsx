// The interface font, split by Unicode range: a browser fetches only the pieces a page uses.
import 'pretendard/dist/web/variable/pretendardvariable-dynamic-subset.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { setSessionEndedHandler } from './api/client';
import { Providers } from './app/providers';
import { router } from './app/router';
import i18n from './i18n';
import { notify } from './components/notify';
import { installAdminModeConsole } from './state/admin-mode';
import { localeFromPath, withLocale } from './state/locale';

// The session has ended (refresh refused, or a fresh token refused): continue at sign-in, in the same language.
setSessionEndedHandler(() => {
  const locale = localeFromPath(window.location.pathname);
  void router.navigate(withLocale(locale, '/auth/login'), { replace: true });
});

// Admin mode is switched from the browser console: `bogwanAdminMode()`.
installAdminModeConsole(
  () => ({
    prompt: i18n.t('admin_mode_prompt'),
    on: i18n.t('admin_mode_on'),
    off: i18n.t('admin_mode_off'),
    incorrect: i18n.t('admin_mode_incorrect_password'),
    failed: i18n.t('admin_mode_verify_failed'),
  }),
  (message, ok) => notify(message, ok ? 'success' : 'error'),
);

const container = document.getElementById('root');
if (!container) throw new Error('missing #root element');

createRoot(container).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);

import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isRouteErrorResponse, Link as RouterLink, useNavigate, useRouteError } from 'react-router';
import { Logo } from '../components/logo';
import { useLocale } from '../i18n/use-locale';
import { withLocale } from '../state/locale';
import { isChunkLoadError, reloadForChunkError } from './chunk-reload';

function statusOf(error: unknown): number {
  if (isRouteErrorResponse(error)) return error.status;
  return 500;
}

// Decided once per error, so a second render (or StrictMode's double call) cannot change the outcome.
const reloadDecisions = new WeakMap<object, boolean>();

function decideReload(error: unknown): boolean {
  if (!isChunkLoadError(error)) return false;
  if (typeof error !== 'object' || error === null) return reloadForChunkError();
  let decision = reloadDecisions.get(error);
  if (decision === undefined) {
    decision = reloadForChunkError();
    reloadDecisions.set(error, decision);
  }
  return decision;
}

/** The router's error element: reloads once for a stale chunk, otherwise shows the error. */
export function RouteErrorPage() {
  const error = useRouteError();
  const [reloading] = useState(() => decideReload(error));

  useEffect(() => {
    if (!reloading) console.error(error);
  }, [error, reloading]);

  if (reloading) return null;
  return <ErrorPage status={statusOf(error)} />;
}

/** A full page with the status code, what it means, and ways out: home and back. */
export function ErrorPage({ status }: { status: number }) {
  const locale = useLocale();
  const { t } = useTranslation(undefined, { lng: locale });
  const navigate = useNavigate();
  const home = withLocale(locale, '/');
  const message = status === 404 ? t('page_not_found') : t('page_error_message');

  useEffect(() => {
    document.title = `${message} · ${t('app_title')}`;
    document.documentElement.lang = locale;
  }, [message, t, locale]);

  const goBack = () => {
    if (window.history.length > 1) void navigate(-1);
    else void navigate(home);
  };

  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'grid', placeItems: 'center', p: 3, bgcolor: 'background.default' }}>
      <Stack spacing={2} sx={{ alignItems: 'center', textAlign: 'center', maxWidth: 480 }}>
        <Logo size={48} />
        <Typography variant="h2" component="p" sx={{ fontWeight: 700, color: 'primary.text' }}>
          {status}
        </Typography>
        <Typography variant="h5" component="h1">
          {message}
        </Typography>
        <Stack direction="row" spacing={1.5} sx={{ pt: 1 }}>
          <Button variant="contained" component={RouterLink} to={home}>
            {t('go_home')}
          </Button>
          <Button variant="outlined" onClick={goBack}>
            {t('go_back')}
          </Button>
        </Stack>
      </Stack>
    </Box>
  );
}

import type { Locale } from '@bogwan/contracts';
import { createBrowserRouter, redirect, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import { applyLocale } from '../i18n';
import { readLocaleCookie, withLocale } from '../state/locale';
import { ErrorPage, RouteErrorPage } from './error-page';
import { LocaleRoot, RequireAdmin, RequireAuth } from './route-guards';

/** Routes under the locale root; every one is its own chunk. */
function pageRoutes(): RouteObject[] {
  return [
    {
      path: 'auth/login',
      lazy: () => import('../routes/auth-login/auth-login-route').then((m) => ({ Component: m.AuthLoginRoute })),
    },
    {
      path: 'share/:key?',
      lazy: () => import('../routes/share/share-route').then((m) => ({ Component: m.ShareRoute })),
    },
    {
      element: <RequireAuth />,
      children: [
        {
          lazy: () => import('./layouts/main-layout/main-layout').then((m) => ({ Component: m.MainLayout })),
          children: [
            { index: true, lazy: () => import('../routes/home/home-route').then((m) => ({ Component: m.HomeRoute })) },
            { path: 'home', lazy: () => import('../routes/home/home-route').then((m) => ({ Component: m.HomeRoute })) },
            { path: 'recent', lazy: () => import('../routes/recent/recent-route').then((m) => ({ Component: m.RecentRoute })) },
            { path: 'search', lazy: () => import('../routes/search/search-route').then((m) => ({ Component: m.SearchRoute })) },
            { path: 'shared', lazy: () => import('../routes/shared/shared-route').then((m) => ({ Component: m.SharedRoute })) },
            { path: 'starred', lazy: () => import('../routes/starred/starred-route').then((m) => ({ Component: m.StarredRoute })) },
            { path: 'requests', lazy: () => import('../routes/requests/requests-route').then((m) => ({ Component: m.RequestsRoute })) },
            { path: 'my-trash', lazy: () => import('../routes/my-trash/my-trash-route').then((m) => ({ Component: m.MyTrashRoute })) },
            { path: 'storage/*', lazy: () => import('../routes/storage/storage-route').then((m) => ({ Component: m.StorageRoute })) },
            { path: 'user/:email', lazy: () => import('../routes/user/user-route').then((m) => ({ Component: m.UserRoute })) },
            { path: 'guide', lazy: () => import('../routes/guide/guide-route').then((m) => ({ Component: m.GuideRoute })) },
            { path: 'manual', lazy: () => import('../routes/manual/manual-route').then((m) => ({ Component: m.ManualRoute })) },
            {
              element: <RequireAdmin />,
              children: [
                { path: 'dashboard', lazy: () => import('../routes/dashboard/dashboard-route').then((m) => ({ Component: m.DashboardRoute })) },
                { path: 'snapshot', lazy: () => import('../routes/snapshot/snapshot-route').then((m) => ({ Component: m.SnapshotRoute })) },
                { path: 'restore', lazy: () => import('../routes/restore/restore-route').then((m) => ({ Component: m.RestoreRoute })) },
                { path: 'event', lazy: () => import('../routes/event/event-route').then((m) => ({ Component: m.EventRoute })) },
                { path: 'log', lazy: () => import('../routes/log/log-route').then((m) => ({ Component: m.LogRoute })) },
                { path: 'trash', lazy: () => import('../routes/trash/trash-route').then((m) => ({ Component: m.TrashRoute })) },
              ],
            },
          ],
        },
      ],
    },
    { path: '*', element: <ErrorPage status={404} /> },
  ];
}

/** Korean pages have no prefix; a visitor whose cookie chose English is sent to the /en page. */
async function koreanLoader({ request }: LoaderFunctionArgs) {
  if (readLocaleCookie() === 'en') {
    const url = new URL(request.url);
    throw redirect(`${withLocale('en', url.pathname)}${url.search}${url.hash}`);
  }
  await applyLocale('ko');
  return null;
}

async function englishLoader() {
  await applyLocale('en');
  return null;
}

function localeRoot(locale: Locale): RouteObject {
  return {
    id: `root-${locale}`,
    path: locale === 'en' ? '/en' : '/',
    element: <LocaleRoot locale={locale} />,
    errorElement: <RouteErrorPage />,
    loader: locale === 'en' ? englishLoader : koreanLoader,
    // Nothing is shown until the first page's chunk has arrived.
    HydrateFallback: () => null,
    children: pageRoutes(),
  };
}

export const router = createBrowserRouter([localeRoot('ko'), localeRoot('en')]);

import CssBaseline from '@mui/material/CssBaseline';
import { enUS, koKR } from '@mui/material/locale';
import { createTheme, ThemeProvider } from '@mui/material/styles';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { lazy, useLayoutEffect, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { Notifier } from '../components/notify';
import { useFullScreenDialog } from '../components/use-full-screen-dialog';
import { useResolvedTheme } from '../state/theme';
import { createAppTheme } from './theme';
import { Deferred } from '../components/deferred';
import { FolderPickerContext, type FolderPickerProps } from '../components/folder-picker';

const FolderPathDialog = lazy(() => import('../features/files/components/dialogs/folder-path-dialog').then((m) => ({ default: m.FolderPathDialog })));

/** The storage's folder dialog, its code loaded when it first opens. */
function FolderPicker(props: FolderPickerProps) {
  return (
    <Deferred open={props.open}>
      <FolderPathDialog {...props} />
    </Deferred>
  );
}

const MAX_RETRIES = 2;

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // A 4xx answer will not change by asking again.
        retry: (failures, error) => failures < MAX_RETRIES && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
        refetchOnWindowFocus: false,
      },
    },
  });
}

function AppThemeProvider({ children }: { children: ReactNode }) {
  const mode = useResolvedTheme();
  const { i18n } = useTranslation();
  const fullScreenDialogs = useFullScreenDialog();
  // MUI's own texts ("No options", pagination labels) in the interface language, and every
  // dialog full screen on narrow windows unless it says otherwise.
  const theme = useMemo(
    () =>
      createTheme(createAppTheme(mode), i18n.language === 'en' ? enUS : koKR, {
        components: { MuiDialog: { defaultProps: { fullScreen: fullScreenDialogs } } },
      }),
    [mode, i18n.language, fullScreenDialogs],
  );

  useLayoutEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = mode;
    root.style.colorScheme = mode;
  }, [mode]);

  return (
    <ThemeProvider theme={theme}>
      <CssBaseline />
      {children}
      <Notifier />
    </ThemeProvider>
  );
}

/** Everything the app needs around the router: server-state cache, theme and baseline CSS. */
export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <FolderPickerContext.Provider value={FolderPicker}>
        <AppThemeProvider>{children}</AppThemeProvider>
      </FolderPickerContext.Provider>
    </QueryClientProvider>
  );
}

import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import CircularProgress from '@mui/material/CircularProgress';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../api/client';
import { messageText } from '../../../i18n/keys';

/** Loading spinner, error, or the section's body once its data is there. */
export function SectionState<T>({
  query,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  children: (data: T) => ReactNode;
}) {
  const { t } = useTranslation();
  if (query.isPending) {
    return (
      <Box sx={{ display: 'grid', placeItems: 'center', py: 4 }}>
        <CircularProgress aria-label={t('loading')} />
      </Box>
    );
  }
  if (query.isError || query.data === undefined) {
    return <Alert severity="error">{messageText(t, query.error instanceof ApiError ? query.error.messageKey : null)}</Alert>;
  }
  return <>{children(query.data)}</>;
}

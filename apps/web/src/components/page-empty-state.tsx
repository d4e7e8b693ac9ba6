import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from './mdi-icon';

export interface PageEmptyStateProps {
  /** The page title, already translated. */
  title: string;
  /** One line saying what the page is for, already translated. */
  description: string;
  /** An @mdi/js path shown above the title. */
  icon: string;
  /** Anything true to show under the heading, such as a path from the URL. */
  children?: ReactNode;
}

/** The heading of a page whose contents are not there yet: title, purpose and nothing more. */
export function PageEmptyState({ title, description, icon, children }: PageEmptyStateProps) {
  const { t } = useTranslation();

  useEffect(() => {
    document.title = `${title} · ${t('app_title')}`;
  }, [title, t]);

  return (
    <Box component="section" sx={{ maxWidth: 960, mx: 'auto', width: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ fontWeight: 700, mb: 0.5 }}>
        {title}
      </Typography>
      {children}
      <Box
        sx={{
          mt: 3,
          py: 8,
          px: 3,
          border: 1,
          borderColor: 'divider',
          borderStyle: 'dashed',
          borderRadius: 2,
          textAlign: 'center',
          color: 'text.secondary',
        }}
      >
        <MdiIcon path={icon} sx={{ fontSize: 48, opacity: 0.5, mb: 1 }} />
        <Typography variant="body1">{description}</Typography>
      </Box>
    </Box>
  );
}

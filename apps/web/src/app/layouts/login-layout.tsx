import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSwitchButton } from '../../components/language-switch-button';
import { Logo } from '../../components/logo';
import { ThemeToggleButton } from '../../components/theme-toggle-button';

/** The minimal frame of sign-in and public pages: logo, theme toggle, language switch. */
export function LoginLayout({ children, maxWidth = 440 }: { children: ReactNode; maxWidth?: number }) {
  const { t } = useTranslation();
  return (
    <Box sx={{ minHeight: '100vh', display: 'flex', flexDirection: 'column', bgcolor: 'background.default' }}>
      <Box component="header" sx={{ display: 'flex', alignItems: 'center', px: { xs: 2, sm: 3 }, py: 1.5, gap: 1 }}>
        <Stack direction="row" spacing={1.25} sx={{ alignItems: 'center', flexGrow: 1 }}>
          <Logo />
          <Typography variant="h6" component="span" sx={{ fontWeight: 700 }}>
            {t('app_title')}
          </Typography>
        </Stack>
        <ThemeToggleButton />
        <LanguageSwitchButton />
      </Box>
      <Box component="main" sx={{ flexGrow: 1, display: 'flex', justifyContent: 'center', alignItems: 'flex-start', px: 2, pb: 6, pt: { xs: 2, sm: 6 } }}>
        <Paper variant="outlined" sx={{ width: '100%', maxWidth, p: { xs: 3, sm: 4 }, borderRadius: 3 }}>
          {children}
        </Paper>
      </Box>
    </Box>
  );
}

import { LOCALES, THEMES, type Theme } from '@bogwan/contracts';
import { mdiAccountCircleOutline, mdiCheck, mdiCogOutline, mdiLogout, mdiThemeLightDark, mdiWeatherNight, mdiWeatherSunny } from '@mdi/js';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon';
import { useLogout } from '../../../features/auth/api/logout';
import { k } from '../../../i18n/keys';
import { useLocale, useLocalePath, useSwitchLocale } from '../../../i18n/use-locale';
import { updateAuthUser, useAuth } from '../../../state/auth';
import { LOCALE_NAMES } from '../../../state/locale';
import { updateOwnLanguage } from '../../../features/profile/api/update-language';
import { setTheme, useTheme } from '../../../state/theme';
import { useOpenSettings } from './settings-slot';

const THEME_OPTIONS = {
  light: { label: k('theme_light'), icon: mdiWeatherSunny },
  dark: { label: k('theme_dark'), icon: mdiWeatherNight },
  system: { label: k('theme_system'), icon: mdiThemeLightDark },
} satisfies Record<Theme, unknown>;

/** The user menu's list (profile, settings, theme, language, sign-out); its code loads when the menu first opens. */
export function UserMenuList({ anchor, onClose }: { anchor: HTMLElement | null; onClose: () => void }) {
  const { t } = useTranslation();
  const auth = useAuth();
  const theme = useTheme();
  const locale = useLocale();
  const localePath = useLocalePath();
  const switchLocale = useSwitchLocale();
  const navigate = useNavigate();
  const logout = useLogout();
  const openSettings = useOpenSettings();
  const close = onClose;
  if (!auth) return null;
  const { user } = auth;

  return (
    <Menu
      anchorEl={anchor}
      open={Boolean(anchor)}
      onClose={close}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'right' }}
      transformOrigin={{ vertical: 'top', horizontal: 'right' }}
      slotProps={{ paper: { sx: { minWidth: 240 } } }}
    >
      <Box sx={{ px: 2, py: 1 }}>
        <Typography variant="subtitle2" noWrap>
          {user.name}
        </Typography>
        <Typography variant="body2" noWrap sx={{ color: 'text.secondary' }}>
          {user.email}
        </Typography>
      </Box>
      <Divider />
      <MenuItem
        onClick={() => {
          close();
          void navigate(localePath(`/user/${encodeURIComponent(user.email)}`));
        }}
      >
        <ListItemIcon>
          <MdiIcon path={mdiAccountCircleOutline} fontSize="small" />
        </ListItemIcon>
        <ListItemText>{t('profile')}</ListItemText>
      </MenuItem>
      <MenuItem
        onClick={() => {
          close();
          openSettings();
        }}
      >
        <ListItemIcon>
          <MdiIcon path={mdiCogOutline} fontSize="small" />
        </ListItemIcon>
        <ListItemText>{t('settings')}</ListItemText>
      </MenuItem>
      <Divider />
      <ListSubheader sx={{ lineHeight: '32px', bgcolor: 'transparent' }}>{t('theme')}</ListSubheader>
      {THEMES.map((option) => (
        <MenuItem
          key={option}
          selected={theme === option}
          onClick={() => {
            setTheme(option);
            close();
          }}
        >
          <ListItemIcon>
            <MdiIcon path={THEME_OPTIONS[option].icon} fontSize="small" />
          </ListItemIcon>
          <ListItemText>{t(THEME_OPTIONS[option].label)}</ListItemText>
          {theme === option && <MdiIcon path={mdiCheck} fontSize="small" sx={{ ml: 2, color: 'primary.text' }} />}
        </MenuItem>
      ))}
      <Divider />
      <ListSubheader sx={{ lineHeight: '32px', bgcolor: 'transparent' }}>{t('language')}</ListSubheader>
      {LOCALES.map((option) => (
        <MenuItem
          key={option}
          selected={locale === option}
          lang={option}
          onClick={() => {
            close();
            if (option !== locale) switchLocale(option);
            // A signed-in switch is the account's choice too: its e-mails follow.
            void updateOwnLanguage(option).then(updateAuthUser, () => undefined);
          }}
        >
          <ListItemText inset>{LOCALE_NAMES[option]}</ListItemText>
          {locale === option && <MdiIcon path={mdiCheck} fontSize="small" sx={{ ml: 2, color: 'primary.text' }} />}
        </MenuItem>
      ))}
      <Divider />
      <MenuItem
        onClick={() => {
          close();
          void logout();
        }}
      >
        <ListItemIcon>
          <MdiIcon path={mdiLogout} fontSize="small" />
        </ListItemIcon>
        <ListItemText>{t('logout')}</ListItemText>
      </MenuItem>
    </Menu>
  );
}

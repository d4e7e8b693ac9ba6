import { mdiMenu } from '@mdi/js';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Toolbar from '@mui/material/Toolbar';
import { useTranslation } from 'react-i18next';
import { useNavigation } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon';
import { panelStore, setPanel, toggleNavCollapsed } from '../../../state/ui';
import { HelpMenu } from './help-menu';
import { NotificationSlot, SearchSlot, TaskStatusSlot } from './slots';
import { useNarrowScreen } from './use-narrow-screen';
import { UserMenu } from './user-menu';

/** The bar above the page: drawer toggle, task status, search, help, notifications, user. */
export function TopBar() {
  const { t } = useTranslation();
  const narrow = useNarrowScreen();
  const loading = useNavigation().state !== 'idle';

  const toggleNavigation = () => {
    if (narrow) setPanel({ mobileNavOpen: !panelStore.get().mobileNavOpen });
    else toggleNavCollapsed();
  };

  return (
    <AppBar position="sticky" color="inherit" elevation={0} sx={{ borderBottom: 1, borderColor: 'divider', bgcolor: 'background.paper' }}>
      <Toolbar sx={{ gap: 0.5, px: 2 }}>
        <IconButton edge="start" aria-label={t('toggle_navigation')} onClick={toggleNavigation}>
          <MdiIcon path={mdiMenu} />
        </IconButton>
        <TaskStatusSlot />
        <Box sx={{ flexGrow: 1 }} />
        <SearchSlot />
        <HelpMenu />
        <NotificationSlot />
        <UserMenu />
      </Toolbar>
      {loading && <LinearProgress aria-label={t('loading')} sx={{ position: 'absolute', left: 0, right: 0, bottom: -1, height: 2 }} />}
    </AppBar>
  );
}

import { MAIN_MIN_WIDTH } from '@bogwan/contracts';
import Box from '@mui/material/Box';
import { useEffect } from 'react';
import { Outlet } from 'react-router';
import { useMe } from '../../../features/auth/api/get-me';
import { clearAuth, updateAuthUser, useAuth } from '../../../state/auth';
import { FileDrop } from './file-drop';
import { NavDrawer } from './nav-drawer';
import { NoticeDrawer } from './notice-drawer';
import { SettingsDialogSlot } from './settings-slot';
import { TaskPanelHost } from './task-status';
import { TopBar } from './top-bar';
import { useRealtime } from './use-realtime';

/** Checks the stored session with the server; an account that is no longer ACTIVE is signed out. */
function useSessionCheck() {
  const auth = useAuth();
  const me = useMe(auth !== null);
  useEffect(() => {
    if (!me.data) return;
    if (me.data.status !== 'ACTIVE') clearAuth();
    else updateAuthUser(me.data);
  }, [me.data]);
}

/** The signed-in shell: navigation drawer, top bar, page, notice drawer, task panel; one socket per tab. */
export function MainLayout() {
  useSessionCheck();
  useRealtime();
  return (
    <Box sx={{ display: 'flex', minHeight: '100vh', bgcolor: 'background.default' }}>
      <NavDrawer />
      <Box sx={{ flexGrow: 1, minWidth: MAIN_MIN_WIDTH, display: 'flex', flexDirection: 'column' }}>
        <TopBar />
        <Box component="main" sx={{ flexGrow: 1, p: { xs: 2, sm: 3 } }}>
          <Outlet />
        </Box>
      </Box>
      <NoticeDrawer />
      <SettingsDialogSlot />
      <FileDrop />
      <TaskPanelHost />
    </Box>
  );
}

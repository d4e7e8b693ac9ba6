import { mdiCogOutline } from '@mdi/js';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListSubheader from '@mui/material/ListSubheader';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Logo } from '../../../components/logo';
import { MdiIcon } from '../../../components/mdi-icon';
import { useAuth } from '../../../state/auth';
import { NavEntry } from './nav-entry';
import { useOpenSettings } from './settings-slot';
import { ADMIN_ITEMS, GUIDE_ITEM, MENU_ITEMS, STORAGE_ITEM } from './nav-items';
import { UsageBarSlot } from './slots';
import { StorageTree } from './storage-tree';

interface NavContentProps {
  collapsed: boolean;
  /** Called after a link is followed (closes the overlay drawer on narrow screens). */
  onNavigate?: () => void;
}

/** A titled group of links (and the folder tree): a group rather than a list, since its children are links, not list items. */
function NavGroup({ title, collapsed, children }: { title: string; collapsed: boolean; children: ReactNode }) {
  return (
    <List
      dense
      component="div"
      role="group"
      aria-label={title}
      subheader={
        collapsed ? (
          <Divider component="div" sx={{ my: 1, mx: 1.5 }} />
        ) : (
          <ListSubheader component="div" aria-hidden disableSticky sx={{ bgcolor: 'transparent', lineHeight: '36px', px: 2.5 }}>
            {title}
          </ListSubheader>
        )
      }
      sx={{ py: 0.5, '& > .MuiListItemButton-root': { mb: 0.25 } }}
    >
      {children}
    </List>
  );
}

/** Inside of the navigation drawer: logo and title, menu groups, usage and settings. */
export function NavContent({ collapsed, onNavigate }: NavContentProps) {
  const { t } = useTranslation();
  const auth = useAuth();
  const isAdmin = (auth?.user.roleLevel ?? 0) > 1;
  const openSettings = useOpenSettings();

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', height: '100%', minHeight: 0 }}>
      <Box
        sx={{
          height: 64,
          flexShrink: 0,
          display: 'flex',
          alignItems: 'center',
          justifyContent: collapsed ? 'center' : 'flex-start',
          gap: 1.25,
          px: collapsed ? 0 : 2.5,
        }}
      >
        <Logo />
        {!collapsed && (
          <Typography variant="h6" component="span" noWrap sx={{ fontWeight: 700 }}>
            {t('app_title')}
          </Typography>
        )}
      </Box>
      <Box component="nav" aria-label={t('navigation')} sx={{ flexGrow: 1, minHeight: 0, overflowY: 'auto', overflowX: 'hidden' }}>
        <NavGroup title={t('nav_group_menu')} collapsed={collapsed}>
          {MENU_ITEMS.map((item) => (
            <NavEntry key={item.path} item={item} collapsed={collapsed} onNavigate={onNavigate} />
          ))}
        </NavGroup>
        <NavGroup title={t('nav_storage')} collapsed={collapsed}>
          <NavEntry item={STORAGE_ITEM} collapsed={collapsed} onNavigate={onNavigate} />
          {!collapsed && <StorageTree onNavigate={onNavigate} />}
        </NavGroup>
        {isAdmin && (
          <NavGroup title={t('nav_group_admin')} collapsed={collapsed}>
            {ADMIN_ITEMS.map((item) => (
              <NavEntry key={item.path} item={item} collapsed={collapsed} onNavigate={onNavigate} />
            ))}
          </NavGroup>
        )}
        <NavGroup title={t('nav_group_help')} collapsed={collapsed}>
          <NavEntry item={GUIDE_ITEM} collapsed={collapsed} onNavigate={onNavigate} />
        </NavGroup>
      </Box>
      <Divider />
      <UsageBarSlot collapsed={collapsed} />
      <Box sx={{ display: 'flex', justifyContent: collapsed ? 'center' : 'flex-start', px: collapsed ? 0 : 1.5, py: 1 }}>
        <LazyTooltip title={t('settings')} placement={collapsed ? 'right' : 'top'}>
          <IconButton
            aria-label={t('settings')}
            onClick={() => {
              onNavigate?.();
              openSettings();
            }}
          >
            <MdiIcon path={mdiCogOutline} />
          </IconButton>
        </LazyTooltip>
      </Box>
    </Box>
  );
}

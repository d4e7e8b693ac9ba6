import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import { LazyTooltip } from '../../../components/lazy-tooltip';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon';
import { useLocalePath } from '../../../i18n/use-locale';
import { stripLocale } from '../../../state/locale';
import { isCurrent, type NavItem } from './nav-items';

interface NavEntryProps {
  item: NavItem;
  collapsed: boolean;
  onNavigate?: () => void;
}

/** One navigation link; icon only with a tooltip when the drawer is collapsed. */
export function NavEntry({ item, collapsed, onNavigate }: NavEntryProps) {
  const { t } = useTranslation();
  const localePath = useLocalePath();
  const current = isCurrent(item, stripLocale(useLocation().pathname));
  const label = t(item.label);

  const button = (
    <ListItemButton
      component={RouterLink}
      to={localePath(item.path)}
      selected={current}
      aria-current={current ? 'page' : undefined}
      aria-label={collapsed ? label : undefined}
      onClick={onNavigate}
      sx={{
        minHeight: 40,
        mx: 1,
        px: collapsed ? 1.25 : 1.5,
        borderRadius: 2,
        justifyContent: collapsed ? 'center' : 'flex-start',
        '&.Mui-selected': { color: 'primary.text' },
        '&.Mui-selected .MuiListItemIcon-root': { color: 'primary.text' },
      }}
    >
      <ListItemIcon sx={{ minWidth: collapsed ? 0 : 40, justifyContent: 'center' }}>
        <MdiIcon path={item.icon} />
      </ListItemIcon>
      {!collapsed && <ListItemText primary={label} slotProps={{ primary: { noWrap: true, sx: { fontWeight: current ? 600 : 400 } } }} />}
    </ListItemButton>
  );

  if (!collapsed) return button;
  return (
    <LazyTooltip title={label} placement="right">
      {button}
    </LazyTooltip>
  );
}

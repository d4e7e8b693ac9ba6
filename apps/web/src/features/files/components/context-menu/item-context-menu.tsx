import type { FileEntry, PermissionType } from '@bogwan/contracts';
import { mdiStar } from '@mdi/js';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../../components/mdi-icon';
import type { ExtraItemAction } from '../../../../lib/item-actions';
import { ITEM_ACTIONS, allowedActions, type ItemAction } from './item-actions';

export interface ItemContextMenuProps {
  position: { x: number; y: number } | null;
  items: FileEntry[];
  permissions: readonly PermissionType[] | undefined;
  onAction: (action: ItemAction) => void;
  onClose: () => void;
  extraActions?: ExtraItemAction[];
  /**
   * What takes the focus when the menu closes; by default the element that had it when the menu
   * opened, unless that element was replaced meanwhile (a button whose tooltip code arrived).
   */
  returnFocus?: () => HTMLElement | null;
}

/** The right-click menu of files and folders; actions without the permission are hidden. Its code loads when it first opens. */
export function ItemContextMenu({ position, items, permissions, onAction, onClose, extraActions = [], returnFocus }: ItemContextMenuProps) {
  const { t } = useTranslation();
  const allowed = new Set(allowedActions(items, permissions ?? []));
  const allStarred = items.length > 0 && items.every((item) => item.starred);
  const visible = ITEM_ACTIONS.filter((spec) => allowed.has(spec.action));
  const extras = permissions && items.length > 0 ? extraActions.filter((extra) => extra.visible(items, permissions)) : [];
  const open = position !== null;
  // A new menu for every opening: one opened again while the last is still fading out would keep
  // that one's list, whose keyboard focus then starts on the second item instead of the first.
  const [openings, setOpenings] = useState({ open, count: 0 });
  if (openings.open !== open) setOpenings({ open, count: openings.count + (open ? 1 : 0) });
  useEffect(() => {
    if (!open || !returnFocus) return;
    return () => returnFocus()?.focus();
  }, [open, returnFocus]);

  return (
    <Menu
      key={openings.count}
      open={open}
      onClose={onClose}
      disableRestoreFocus={Boolean(returnFocus)}
      anchorReference="anchorPosition"
      anchorPosition={position ? { top: position.y, left: position.x } : undefined}
      slotProps={{
        list: { dense: true, 'aria-label': t('item_actions') },
        paper: { sx: { minWidth: 220 }, onContextMenu: (event: MouseEvent) => event.preventDefault() },
      }}
    >
      {permissions === undefined && (
        <MenuItem disabled>
          <ListItemText>{t('loading')}</ListItemText>
        </MenuItem>
      )}
      {permissions !== undefined && visible.length === 0 && extras.length === 0 && (
        <MenuItem disabled>
          <ListItemText>{t('no_actions')}</ListItemText>
        </MenuItem>
      )}
      {visible.flatMap((spec, index) => {
        const starSpec = spec.action === 'star' && allStarred;
        const entries = [
          <MenuItem
            key={spec.action}
            onClick={() => {
              onClose();
              onAction(spec.action);
            }}
          >
            <ListItemIcon>
              <MdiIcon path={starSpec ? mdiStar : spec.icon} fontSize="small" />
            </ListItemIcon>
            <ListItemText>{starSpec ? t('unstar') : t(spec.label)}</ListItemText>
            {spec.shortcut && (
              <Typography variant="caption" sx={{ color: 'text.secondary', ml: 2 }}>
                {spec.shortcut}
              </Typography>
            )}
          </MenuItem>,
        ];
        if (spec.dividerBefore && index > 0) entries.unshift(<Divider key={`${spec.action}-divider`} />);
        return entries;
      })}
      {extras.length > 0 && visible.length > 0 && <Divider />}
      {extras.map((extra) => (
        <MenuItem
          key={extra.id}
          onClick={() => {
            onClose();
            extra.run(items);
          }}
        >
          <ListItemIcon>
            <MdiIcon path={extra.icon} fontSize="small" />
          </ListItemIcon>
          <ListItemText>{extra.label}</ListItemText>
        </MenuItem>
      ))}
    </Menu>
  );
}

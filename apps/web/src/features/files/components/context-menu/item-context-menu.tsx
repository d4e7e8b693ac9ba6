import type { FileEntry, PermissionType } from '@bogwan/contracts';
import { mdiStar } from '@mdi/js';
import Divider from '@mui/material/Divider';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Typography from '@mui/material/Typography';
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
}

/** The right-click menu of files and folders; actions without the permission are hidden. Its code loads when it first opens. */
export function ItemContextMenu({ position, items, permissions, onAction, onClose, extraActions = [] }: ItemContextMenuProps) {
  const { t } = useTranslation();
  const allowed = new Set(allowedActions(items, permissions ?? []));
  const allStarred = items.length > 0 && items.every((item) => item.starred);
  const visible = ITEM_ACTIONS.filter((spec) => allowed.has(spec.action));
  const extras = permissions && items.length > 0 ? extraActions.filter((extra) => extra.visible(items, permissions)) : [];

  return (
    <Menu
      open={position !== null}
      onClose={onClose}
      anchorReference="anchorPosition"
      anchorPosition={position ? { top: position.y, left: position.x } : undefined}
      slotProps={{ list: { dense: true, 'aria-label': t('item_actions') }, paper: { sx: { minWidth: 220 } } }}
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

import { mdiBookOpenPageVariantOutline, mdiBookOutline, mdiBullhornOutline } from '@mdi/js';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon';
import { useLocalePath } from '../../../i18n/use-locale';
import { setPanel } from '../../../state/ui';

/** The help menu's list (notices, guide, manual); its code loads when the menu first opens. */
export function HelpMenuList({ anchor, onClose }: { anchor: HTMLElement | null; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const close = onClose;

  return (
    <Menu anchorEl={anchor} open={Boolean(anchor)} onClose={close}>
      <MenuItem
        onClick={() => {
          close();
          setPanel({ noticeOpen: true });
        }}
      >
        <ListItemIcon>
          <MdiIcon path={mdiBullhornOutline} fontSize="small" />
        </ListItemIcon>
        <ListItemText>{t('notice')}</ListItemText>
      </MenuItem>
      <MenuItem
        onClick={() => {
          close();
          void navigate(localePath('/guide'));
        }}
      >
        <ListItemIcon>
          <MdiIcon path={mdiBookOpenPageVariantOutline} fontSize="small" />
        </ListItemIcon>
        <ListItemText>{t('nav_guide')}</ListItemText>
      </MenuItem>
      <MenuItem
        onClick={() => {
          close();
          void navigate(localePath('/manual'));
        }}
      >
        <ListItemIcon>
          <MdiIcon path={mdiBookOutline} fontSize="small" />
        </ListItemIcon>
        <ListItemText>{t('nav_manual')}</ListItemText>
      </MenuItem>
    </Menu>
  );
}

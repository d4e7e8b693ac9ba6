import { mdiBookOpenPageVariantOutline, mdiBookOutline, mdiBullhornOutline, mdiHelpCircleOutline } from '@mdi/js';
import IconButton from '@mui/material/IconButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Tooltip from '@mui/material/Tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { MdiIcon } from '../../../components/mdi-icon';
import { useLocalePath } from '../../../i18n/use-locale';
import { setPanel } from '../../../state/ui';

/** Top-bar help: opens the notice drawer, the user guide or the manual (both PDFs, downloadable there). */
export function HelpMenu() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const localePath = useLocalePath();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const close = () => setAnchor(null);

  return (
    <>
      <Tooltip title={t('help_menu')}>
        <IconButton
          aria-label={t('help_menu')}
          aria-haspopup="menu"
          aria-expanded={anchor ? 'true' : undefined}
          onClick={(event) => setAnchor(event.currentTarget)}
        >
          <MdiIcon path={mdiHelpCircleOutline} />
        </IconButton>
      </Tooltip>
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
    </>
  );
}

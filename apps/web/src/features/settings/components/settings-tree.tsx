import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { useTranslation } from 'react-i18next';
import { MdiIcon } from '../../../components/mdi-icon';
import type { SettingId } from '../../../state/settings';
import type { SettingGroup } from './sections';

interface SettingsTreeProps {
  groups: SettingGroup[];
  selected: SettingId;
  onSelect: (id: SettingId) => void;
}

/** The section tree on the left of the settings dialog. */
export function SettingsTree({ groups, selected, onSelect }: SettingsTreeProps) {
  const { t } = useTranslation();
  return (
    <Box component="nav" aria-label={t('settings_sections')} sx={{ flexGrow: 1, minHeight: 0, overflowY: 'auto', pb: 1 }}>
      {groups.map((group) => (
        <List
          key={group.id}
          dense
          component="div"
          role="group"
          aria-label={t(group.label)}
          subheader={
            <ListSubheader component="div" aria-hidden disableSticky sx={{ bgcolor: 'transparent', lineHeight: '32px', mt: 0.5 }}>
              {t(group.label)}
            </ListSubheader>
          }
          sx={{ py: 0 }}
        >
          {group.sections.map((section) => (
            <ListItemButton
              key={section.id}
              selected={section.id === selected}
              disabled={!section.available}
              aria-current={section.id === selected ? 'page' : undefined}
              onClick={() => onSelect(section.id)}
              sx={{ mx: 1, borderRadius: 1.5, pl: 2 }}
            >
              <ListItemIcon sx={{ minWidth: 36 }}>
                <MdiIcon path={section.icon} fontSize="small" />
              </ListItemIcon>
              <ListItemText primary={t(section.label)} />
            </ListItemButton>
          ))}
        </List>
      ))}
    </Box>
  );
}

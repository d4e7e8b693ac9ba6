import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useTranslation } from 'react-i18next';
import type { TranslationKey } from '../../../../i18n/keys';
import type { ListSort } from '../../api/list-files';

export interface SortMenuProps {
  anchor: HTMLElement | null;
  options: ReadonlyArray<{ value: ListSort; label: TranslationKey }>;
  value: ListSort;
  onPick: (sort: ListSort) => void;
  onClose: () => void;
}

/** The toolbar's sort choices under its sort button (its code loads when it first opens). */
export function SortMenu({ anchor, options, value, onPick, onClose }: SortMenuProps) {
  const { t } = useTranslation();
  return (
    <Menu anchorEl={anchor} open={anchor !== null} onClose={onClose}>
      {options.map((option) => (
        <MenuItem
          key={option.value}
          selected={option.value === value}
          onClick={() => {
            onClose();
            onPick(option.value);
          }}
        >
          {t(option.label)}
        </MenuItem>
      ))}
    </Menu>
  );
}

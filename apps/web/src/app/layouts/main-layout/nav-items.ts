import {
  mdiBackupRestore,
  mdiBookOpenPageVariantOutline,
  mdiClipboardCheckOutline,
  mdiClockOutline,
  mdiDatabaseOutline,
  mdiDeleteRestore,
  mdiHomeOutline,
  mdiRestore,
  mdiShareVariantOutline,
  mdiStarOutline,
  mdiTextBoxSearchOutline,
  mdiTimelineTextOutline,
  mdiTrashCanOutline,
  mdiViewDashboardOutline,
} from '@mdi/js';
import { k, type TranslationKey } from '../../../i18n/keys';

export interface NavItem {
  /** Locale-free path the entry opens. */
  path: string;
  label: TranslationKey;
  icon: string;
  /** Other paths at which the entry counts as the current page. */
  aliases?: string[];
  /** The entry is also current below its path (folders under /storage). */
  nested?: boolean;
}

export const MENU_ITEMS: NavItem[] = [
  { path: '/', label: k('nav_home'), icon: mdiHomeOutline, aliases: ['/home'] },
  { path: '/recent', label: k('nav_recent'), icon: mdiClockOutline },
  { path: '/shared', label: k('nav_shared'), icon: mdiShareVariantOutline },
  { path: '/starred', label: k('nav_starred'), icon: mdiStarOutline },
  { path: '/requests', label: k('nav_requests'), icon: mdiClipboardCheckOutline },
  { path: '/my-trash', label: k('nav_my_trash'), icon: mdiDeleteRestore },
];

export const STORAGE_ITEM: NavItem = {
  path: '/storage',
  label: k('nav_storage'),
  icon: mdiDatabaseOutline,
  nested: true,
};

/** Shown only to administrators (roleLevel above 1). */
export const ADMIN_ITEMS: NavItem[] = [
  { path: '/dashboard', label: k('nav_dashboard'), icon: mdiViewDashboardOutline },
  { path: '/snapshot', label: k('nav_snapshot'), icon: mdiBackupRestore },
  { path: '/restore', label: k('nav_restore'), icon: mdiRestore },
  { path: '/event', label: k('nav_event'), icon: mdiTimelineTextOutline },
  { path: '/log', label: k('nav_log'), icon: mdiTextBoxSearchOutline },
  { path: '/trash', label: k('nav_trash'), icon: mdiTrashCanOutline },
];

export const GUIDE_ITEM: NavItem = { path: '/guide', label: k('nav_guide'), icon: mdiBookOpenPageVariantOutline };

/** Whether the entry is the page at `path` (a locale-free pathname). */
export function isCurrent(item: NavItem, path: string): boolean {
  const clean = path.length > 1 ? path.replace(/\/+$/, '') : path;
  if (clean === item.path || item.aliases?.includes(clean)) return true;
  return Boolean(item.nested) && clean.startsWith(`${item.path}/`);
}

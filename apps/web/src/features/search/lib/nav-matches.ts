import { ADMIN_ITEMS, GUIDE_ITEM, MENU_ITEMS, STORAGE_ITEM, type NavItem } from '../../../app/layouts/main-layout/nav-items';

/** The navigation entries the user sees (administration only above roleLevel 1). */
export function visibleNavItems(roleLevel: number): NavItem[] {
  return [...MENU_ITEMS, STORAGE_ITEM, ...(roleLevel > 1 ? ADMIN_ITEMS : []), GUIDE_ITEM];
}

/**
 * Navigation entries whose label (in the current language) or path holds the query,
 * case-insensitive; labels starting with it first. Empty for a blank query.
 */
export function navMatches(items: NavItem[], query: string, label: (item: NavItem) => string): NavItem[] {
  const needle = query.trim().toLocaleLowerCase();
  if (!needle) return [];
  const scored = items
    .map((item) => {
      const text = label(item).toLocaleLowerCase();
      const at = text.indexOf(needle);
      const pathHit = item.path.slice(1).toLocaleLowerCase().includes(needle);
      return { item, rank: at === 0 ? 0 : at > 0 ? 1 : pathHit ? 2 : -1 };
    })
    .filter((entry) => entry.rank >= 0);
  return scored.sort((a, b) => a.rank - b.rank).map((entry) => entry.item);
}

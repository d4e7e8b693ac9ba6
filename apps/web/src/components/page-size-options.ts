import { SETTINGS_PAGE_SIZE_CHOICES } from '@bogwan/contracts';

const CHOICES: readonly number[] = SETTINGS_PAGE_SIZE_CHOICES;

/** Whether a page size is one of the spec's choices (10, 20, 50, 100), offered in the menu. */
export function isOfferedPageSize(size: number): boolean {
  return CHOICES.includes(size);
}

/**
 * The sizes the page-size select holds: the spec's choices, plus the current size when it is
 * not one of them (the 15-row default of settings tables). The select needs that value among
 * its items to show it; the menu hides it (see `isOfferedPageSize`), so once another size is
 * chosen it is gone.
 */
export function pageSizeOptions(current: number): number[] {
  return isOfferedPageSize(current) ? [...CHOICES] : [...CHOICES, current].sort((a, b) => a - b);
}

import { NAV_SNAP_THRESHOLD, NAV_WIDTH_COLLAPSED, NAV_WIDTH_EXPANDED, NAV_WIDTH_MAX, NAV_WIDTH_MIN } from '@bogwan/contracts';
import { createStore, useStore } from './store';

/** Clamps a dragged width into the allowed range. */
export function clampNavWidth(width: number): number {
  return Math.round(Math.min(NAV_WIDTH_MAX, Math.max(NAV_WIDTH_MIN, width)));
}

/** Width the drawer settles at when a drag ends: below the snap threshold it collapses. */
export function settleNavWidth(width: number): number {
  const clamped = clampNavWidth(width);
  return clamped < NAV_SNAP_THRESHOLD ? NAV_WIDTH_COLLAPSED : clamped;
}

/** A width this narrow shows icons only. */
export function isNavCollapsed(width: number): boolean {
  return width < NAV_SNAP_THRESHOLD;
}

/** Width of the navigation drawer (desktop), kept in localStorage as `ui.navWidth`. */
export const navWidthStore = createStore<number>(NAV_WIDTH_EXPANDED, {
  key: 'ui.navWidth',
  parse: (raw) => (typeof raw === 'number' && Number.isFinite(raw) ? settleNavWidth(raw) : null),
});

/** Last expanded width, so expanding after a collapse returns to it. */
let lastExpandedWidth = isNavCollapsed(navWidthStore.get()) ? NAV_WIDTH_EXPANDED : navWidthStore.get();

export function useNavWidth(): number {
  return useStore(navWidthStore);
}

export function setNavWidth(width: number): void {
  const settled = settleNavWidth(width);
  if (!isNavCollapsed(settled)) lastExpandedWidth = settled;
  navWidthStore.set(settled);
}

export function toggleNavCollapsed(): void {
  setNavWidth(isNavCollapsed(navWidthStore.get()) ? lastExpandedWidth : NAV_WIDTH_COLLAPSED);
}

/** Open state of overlay panels; not persisted. */
export interface PanelState {
  /** The temporary navigation drawer used on narrow screens. */
  mobileNavOpen: boolean;
  noticeOpen: boolean;
}

export const panelStore = createStore<PanelState>({ mobileNavOpen: false, noticeOpen: false });

export function usePanels(): PanelState {
  return useStore(panelStore);
}

export function setPanel(patch: Partial<PanelState>): void {
  panelStore.set({ ...panelStore.get(), ...patch });
}

/** How the file browser shows a folder. */
export type ViewMode = 'list' | 'grid';

/** The file browser's view, kept in localStorage as `ui.viewMode`. */
export const viewModeStore = createStore<ViewMode>('list', {
  key: 'ui.viewMode',
  parse: (raw) => (raw === 'list' || raw === 'grid' ? raw : null),
});

export function useViewMode(): ViewMode {
  return useStore(viewModeStore);
}

export function setViewMode(mode: ViewMode): void {
  viewModeStore.set(mode);
}

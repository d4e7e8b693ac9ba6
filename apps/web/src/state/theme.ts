import { THEMES, type Theme } from '@bogwan/contracts';
import { useSyncExternalStore } from 'react';
import { createStore, useStore } from './store';

/** The chosen theme: light, dark or system (default), kept in localStorage. */
export const themeStore = createStore<Theme>('system', {
  key: 'theme',
  parse: (raw) => (THEMES.includes(raw as Theme) ? (raw as Theme) : null),
});

export type PaletteMode = 'light' | 'dark';

const DARK_QUERY = '(prefers-color-scheme: dark)';

function subscribeSystem(listener: () => void): () => void {
  const query = window.matchMedia(DARK_QUERY);
  query.addEventListener('change', listener);
  return () => query.removeEventListener('change', listener);
}

const systemPrefersDark = () => window.matchMedia(DARK_QUERY).matches;

/** Palette mode a theme choice resolves to, given what the system prefers. */
export function resolveTheme(theme: Theme, systemDark: boolean): PaletteMode {
  if (theme === 'system') return systemDark ? 'dark' : 'light';
  return theme;
}

export function useTheme(): Theme {
  return useStore(themeStore);
}

/** The palette mode in force, following the system setting when the choice is 'system'. */
export function useResolvedTheme(): PaletteMode {
  const theme = useTheme();
  const systemDark = useSyncExternalStore(subscribeSystem, systemPrefersDark, () => false);
  return resolveTheme(theme, systemDark);
}

export function setTheme(theme: Theme): void {
  themeStore.set(theme);
}

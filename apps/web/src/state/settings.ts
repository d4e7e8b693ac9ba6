import { createStore, useStore } from './store';

/**
 * The section ids of the settings dialog, as the spec names them, plus `server` for the
 * server storage entry of the tree, which the spec's id list leaves without one.
 */
export const SETTING_IDS = [
  'profile',
  'notification',
  'security',
  'activity',
  'delete',
  'account',
  'group',
  'server',
  'cloud',
  'volume',
  'default_permissions',
  'folder',
  'resource',
  'incoming',
  'outgoing',
  'information',
  'license',
  'network',
  'policy',
  'log',
  'audit',
] as const;
export type SettingId = (typeof SETTING_IDS)[number];

export function isSettingId(value: unknown): value is SettingId {
  return SETTING_IDS.includes(value as SettingId);
}

/** The last opened settings section (`settingId` of the client state), kept in localStorage. */
export const settingIdStore = createStore<SettingId | null>(null, {
  key: 'settingId',
  parse: (raw) => (isSettingId(raw) ? raw : null),
});

/** Whether the settings dialog is open; not persisted. */
export const settingsOpenStore = createStore<boolean>(false);

export function useSettingId(): SettingId | null {
  return useStore(settingIdStore);
}

export function useSettingsOpen(): boolean {
  return useStore(settingsOpenStore);
}

/** Opens the settings dialog, at `section` when given, else at the last one opened. */
export function openSettings(section?: SettingId): void {
  if (section) settingIdStore.set(section);
  settingsOpenStore.set(true);
}

export function closeSettings(): void {
  settingsOpenStore.set(false);
}

export function selectSetting(section: SettingId): void {
  settingIdStore.set(section);
}

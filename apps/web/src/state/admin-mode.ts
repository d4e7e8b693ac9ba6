import { apiCalls } from '@bogwan/contracts';
import { callApi } from '../api/client';
import { authStore } from './auth';
import { createStore, useStore } from './store';

/**
 * Admin mode (client state `adminMode`, default off): unlocked for this page session by the
 * administrator's own password, it lets the cloud storage fields be edited. The server holds
 * the switch per session; this mirrors it. Not persisted; signing out turns it off.
 */
export const adminModeStore = createStore<boolean>(false);

export function useAdminMode(): boolean {
  return useStore(adminModeStore);
}

export type AdminModeOutcome = 'on' | 'off' | 'incorrect' | 'failed' | 'canceled';

/** Checks a password with `POST /api/setting/admin` and turns admin mode on when it is right. */
export async function enterAdminMode(password: string): Promise<AdminModeOutcome> {
  try {
    const answer = await callApi(apiCalls.admin_mode, { body: { password } });
    if (!answer.success) return 'incorrect';
    adminModeStore.set(true);
    return 'on';
  } catch {
    return 'failed';
  }
}

/**
 * Turns admin mode off with `DELETE /api/setting/admin`, so the server locks the cloud
 * fields of this session again too; when the call fails it stays on (try again).
 */
export async function leaveAdminMode(): Promise<AdminModeOutcome> {
  try {
    await callApi(apiCalls.admin_mode_off);
    adminModeStore.set(false);
    return 'off';
  } catch {
    return 'failed';
  }
}

/** What the console function tells the person at the console, in the page's language. */
export interface AdminModeTexts {
  prompt: string;
  on: string;
  off: string;
  incorrect: string;
  failed: string;
}

declare global {
  interface Window {
    /** Toggles admin mode: asks for the password to turn it on; turns it off without one. */
    bogwanAdminMode?: () => Promise<AdminModeOutcome>;
  }
}

/**
 * Installs `window.bogwanAdminMode()`, the hidden browser-console switch of admin mode.
 * `texts` is read at each call (the language may change); `tell` shows the outcome.
 */
export function installAdminModeConsole(texts: () => AdminModeTexts, tell: (message: string, ok: boolean) => void): void {
  authStore.subscribe(() => {
    if (!authStore.get()) adminModeStore.set(false);
  });
  window.bogwanAdminMode = async () => {
    const text = texts();
    if (adminModeStore.get()) {
      const outcome = await leaveAdminMode();
      tell(outcome === 'off' ? text.off : text.failed, outcome === 'off');
      return outcome;
    }
    const password = window.prompt(text.prompt);
    if (!password) return 'canceled';
    const outcome = await enterAdminMode(password);
    if (outcome === 'on') tell(text.on, true);
    else if (outcome === 'incorrect') tell(text.incorrect, false);
    else tell(text.failed, false);
    return outcome;
  };
}

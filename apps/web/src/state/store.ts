import { useSyncExternalStore } from 'react';

/** A tiny observable value, optionally persisted to localStorage under `key`. */
export interface Store<T> {
  get(): T;
  set(next: T): void;
  subscribe(listener: () => void): () => void;
}

interface PersistOptions<T> {
  /** localStorage key; the value is stored as JSON. */
  key: string;
  /** Turns whatever was stored into a valid value, or null to use the initial one. */
  parse: (raw: unknown) => T | null;
}

function storage(): Storage | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage;
  } catch {
    return null; // access can throw when storage is disabled
  }
}

function readPersisted<T>(persist: PersistOptions<T>): T | null {
  const raw = storage()?.getItem(persist.key);
  if (raw == null) return null;
  try {
    return persist.parse(JSON.parse(raw));
  } catch {
    return null;
  }
}

/** Creates a store; with `persist`, the value survives reloads and follows other tabs. */
export function createStore<T>(initial: T, persist?: PersistOptions<T>): Store<T> {
  let value = (persist && readPersisted(persist)) ?? initial;
  const listeners = new Set<() => void>();
  const emit = () => listeners.forEach((listener) => listener());

  if (persist && typeof window !== 'undefined') {
    window.addEventListener('storage', (event) => {
      if (event.key !== persist.key) return;
      value = readPersisted(persist) ?? initial;
      emit();
    });
  }

  return {
    get: () => value,
    set(next) {
      if (Object.is(next, value)) return;
      value = next;
      if (persist) {
        const store = storage();
        if (next === null || next === undefined) store?.removeItem(persist.key);
        else store?.setItem(persist.key, JSON.stringify(next));
      }
      emit();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** Reads a store in a component and re-renders when it changes. */
export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

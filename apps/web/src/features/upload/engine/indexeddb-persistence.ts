import type { UploadDescriptor, UploadPersistence, UploadSource } from './types';

const DB_NAME = 'bogwan-uploads';
const STORE = 'uploads';

interface Row {
  descriptor: UploadDescriptor;
  /** The File itself: Chromium and Firefox keep File objects in IndexedDB, so no re-pick is needed. */
  file?: Blob & { name?: string; lastModified?: number };
  /** Whose upload it is; another account signing in on the same browser does not resume it. */
  owner: string;
}

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function open(): Promise<IDBDatabase> {
  return new Promise((resolve, reject) => {
    const req = indexedDB.open(DB_NAME, 1);
    req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'descriptor.id' });
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

/** Keeps queued uploads (descriptor and File) in IndexedDB so a reload resumes them. */
export function createIndexedDbPersistence(owner: () => string): UploadPersistence {
  let db: Promise<IDBDatabase> | null = null;
  const database = () => (db ??= open());

  async function store(mode: IDBTransactionMode): Promise<IDBObjectStore> {
    return (await database()).transaction(STORE, mode).objectStore(STORE);
  }

  return {
    async save(descriptor, source) {
      const row: Row = { descriptor, owner: owner() };
      if (source instanceof Blob) row.file = source;
      try {
        await request((await store('readwrite')).put(row));
      } catch {
        // The browser refused the bytes: keep the descriptor, the user picks the file again.
        await request((await store('readwrite')).put({ descriptor, owner: row.owner }));
      }
    },
    async remove(id) {
      await request((await store('readwrite')).delete(id));
    },
    async load() {
      const rows = (await request((await store('readonly')).getAll())) as Row[];
      const me = owner();
      return rows
        .filter((row) => row.owner === me)
        .sort((a, b) => a.descriptor.createdAt - b.descriptor.createdAt)
        .map((row) => {
          const file = row.file;
          if (!file) return { descriptor: row.descriptor };
          const source: UploadSource = {
            size: file.size,
            name: file.name ?? row.descriptor.name,
            lastModified: file.lastModified ?? row.descriptor.lastModified,
            slice: (start, end) => file.slice(start, end),
          };
          return { descriptor: row.descriptor, source };
        });
    },
  };
}

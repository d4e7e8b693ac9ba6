import { checkFolderName, type UploadConflictAction } from '@bogwan/contracts';
import { ApiError } from '../../api/client';
import { refreshSession, freshToken } from '../../api/session-refresh';
import { notify } from '../../components/notify';
import i18n from '../../i18n';
import { messageText } from '../../i18n/keys';
import { authStore } from '../../state/auth';
import { ensureFolder } from './api/ensure-folder';
import { checkUploadNames } from './api/check-names';
import { canCreateIn } from './api/get-create-permission';
import { createHttpTransport } from './engine/http-transport';
import { createIndexedDbPersistence } from './engine/indexeddb-persistence';
import type { UploadTask } from './engine/types';
import { UploadQueue } from './engine/upload-queue';
import { applyChoices, conflictsOf, resolveConflicts } from './lib/conflicts';
import type { DroppedFile } from './lib/read-drop';

let queue: UploadQueue | null = null;
const completeListeners = new Set<(task: UploadTask) => void>();

const userId = () => authStore.get()?.user._id ?? '';

/** The one upload queue of the page, created on first use. */
export function uploadQueue(): UploadQueue {
  if (!queue) {
    queue = new UploadQueue({
      transport: createHttpTransport({ token: freshToken, refresh: refreshSession, userId }),
      persistence: typeof indexedDB === 'undefined' ? undefined : createIndexedDbPersistence(userId),
      onComplete: (task) => completeListeners.forEach((listener) => listener(task)),
    });
  }
  return queue;
}

let restored = false;
/** Brings back the uploads kept before a reload (once per page). */
export function restoreUploads(): void {
  if (restored || !authStore.get()) return;
  restored = true;
  void uploadQueue().restore();
}

/** Subscribes to finished files (to refresh lists). */
export function onUploadComplete(listener: (task: UploadTask) => void): () => void {
  completeListeners.add(listener);
  return () => completeListeners.delete(listener);
}

/**
 * Names already taken in `target` are decided before a byte moves: one check call for the
 * whole drop, then the conflict dialog (replace, keep both or skip, per file or for all).
 * Answers the files to send with their action; null when the user cancelled or the check failed.
 */
async function decideConflicts(target: string, files: DroppedFile[]): Promise<Array<DroppedFile & { onConflict?: UploadConflictAction }> | null> {
  try {
    const conflicts = conflictsOf(
      await checkUploadNames(
        target,
        files.map((f) => f.relativePath),
      ),
    );
    if (conflicts.length === 0) return files;
    const choices = await resolveConflicts(target, conflicts);
    return choices ? applyChoices(files, choices) : null;
  } catch (error) {
    notify(messageText(i18n.t, error instanceof ApiError ? error.messageKey : 'request_error_message'), 'error');
    return null;
  }
}

function join(folder: string, name: string): string {
  return folder === '/' ? `/${name}` : `${folder}/${name}`;
}

/**
 * Uploads dropped or picked files into `target`, creating the folders of their relative
 * paths first. An empty list does nothing. A USER without CREATE on the target gets
 * `no_access_warning` and nothing is sent. Answers whether anything was queued.
 */
export async function startUpload(target: string, files: DroppedFile[]): Promise<boolean> {
  if (files.length === 0) return false;
  const user = authStore.get()?.user;
  if (!user) return false;
  if (user.role === 'USER' && !(await canCreateIn(target))) {
    notify(i18n.t('no_access_warning'), 'warning');
    return false;
  }
  const wanted = await decideConflicts(target, files);
  if (!wanted || wanted.length === 0) return false;

  // Folders of the dropped tree, parents before children.
  const folders = new Set<string>();
  for (const { relativePath } of wanted) {
    const parts = relativePath.split('/').slice(0, -1);
    for (let depth = 1; depth <= parts.length; depth += 1) folders.add(parts.slice(0, depth).join('/'));
  }
  const failed = new Set<string>();
  for (const folder of [...folders].sort((a, b) => a.split('/').length - b.split('/').length)) {
    const parts = folder.split('/');
    const name = parts.at(-1) as string;
    const parent = parts.slice(0, -1).join('/');
    if (failed.has(parent)) {
      failed.add(folder);
      continue;
    }
    if (checkFolderName(name)) {
      notify(`${name}: ${i18n.t('rules_folder')}`, 'error');
      failed.add(folder);
      continue;
    }
    try {
      await ensureFolder(parent ? join(target, parent) : target, name);
    } catch (error) {
      const key = error instanceof ApiError ? error.messageKey : 'request_error_message';
      notify(messageText(i18n.t, key), error instanceof ApiError && error.status === 403 ? 'warning' : 'error');
      if (error instanceof ApiError && error.status === 403) return false;
      failed.add(folder);
    }
  }

  const uploads = wanted.flatMap(({ file, relativePath, onConflict }) => {
    const dir = relativePath.split('/').slice(0, -1).join('/');
    if (dir && failed.has(dir)) return [];
    return [{ source: file, path: dir ? join(target, dir) : target, name: file.name, ...(onConflict ? { onConflict } : {}) }];
  });
  if (uploads.length === 0) return false;
  uploadQueue().add(uploads);
  return true;
}

import { apiCalls } from '@bogwan/contracts';
import { ApiError, callApi } from '../../../api/client';

/** POST /api/file `{name, path}` for a folder of a dropped tree; one that exists already is fine. */
export async function ensureFolder(path: string, name: string): Promise<void> {
  try {
    await callApi(apiCalls.folder_create, { body: { path, name } });
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) return;
    throw error;
  }
}

import { UPLOAD_CHECK_MAX_NAMES, type UploadCheckItem, apiCalls } from '@bogwan/contracts';
import { callApi } from '../../../api/client';

/**
 * POST /api/file/upload/check: which of `names` (relative paths of one drop) already exist
 * in `path`. One call for a drop (more only past UPLOAD_CHECK_MAX_NAMES names); answers in
 * the order asked.
 */
export async function checkUploadNames(path: string, names: string[]): Promise<UploadCheckItem[]> {
  const items: UploadCheckItem[] = [];
  for (let start = 0; start < names.length; start += UPLOAD_CHECK_MAX_NAMES) {
    const batch = names.slice(start, start + UPLOAD_CHECK_MAX_NAMES);
    items.push(...(await callApi(apiCalls.file_upload_check, { body: { path, names: batch } })).items);
  }
  return items;
}

import { UPLOAD_CHECK_MAX_NAMES, uploadCheckResponseSchema, type UploadCheckItem } from '@bogwan/contracts';
import { apiFetch } from '../../../api/client';

/**
 * POST /api/file/upload/check: which of `names` (relative paths of one drop) already exist
 * in `path`. One call for a drop (more only past UPLOAD_CHECK_MAX_NAMES names); answers in
 * the order asked.
 */
export async function checkUploadNames(path: string, names: string[]): Promise<UploadCheckItem[]> {
  const items: UploadCheckItem[] = [];
  for (let start = 0; start < names.length; start += UPLOAD_CHECK_MAX_NAMES) {
    const batch = names.slice(start, start + UPLOAD_CHECK_MAX_NAMES);
    items.push(...(await apiFetch('/file/upload/check', { method: 'POST', body: { path, names: batch }, schema: uploadCheckResponseSchema })).items);
  }
  return items;
}

import { fetchWithSession } from '../../../api/fetch-with-session';

function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

/**
 * GET /api/file/download?path= (or `paths` repeated for several items, one zip): fetched
 * with the bearer token, never a token in the URL, then saved through a blob link.
 */
export async function downloadItems(items: Array<{ path: string; name: string; folder: boolean }>, zipName: string): Promise<void> {
  const [first] = items;
  if (!first) return;
  const query = new URLSearchParams();
  if (items.length === 1) query.set('path', first.path);
  else for (const item of items) query.append('paths', item.path);
  const response = await fetchWithSession(`/file/download?${query}`);
  const name = items.length === 1 ? (first.folder ? `${first.name}.zip` : first.name) : zipName;
  save(await response.blob(), name);
}

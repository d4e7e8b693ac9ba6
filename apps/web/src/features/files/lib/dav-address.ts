/**
 * The WebDAV address of a storage folder: `<origin>/dav/<root>/<path…>/`, each name
 * percent-encoded as UTF-8 (Korean names included), so it can be pasted into any client.
 */
export function davAddress(origin: string, path: string): string {
  const segments = path.split('/').filter((segment) => segment !== '');
  const encoded = segments.map((segment) => `${encodeURIComponent(segment)}/`).join('');
  return `${origin}/dav/${encoded}`;
}

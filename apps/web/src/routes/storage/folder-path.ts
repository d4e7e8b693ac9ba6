export interface FolderSegment {
  /** Folder name as the user sees it (decoded). */
  name: string;
  /** Locale-free link to the folder, '/storage/A/B'. */
  href: string;
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Splits the part of the URL below /storage into folders, each with its own link. */
export function folderSegments(splat: string): FolderSegment[] {
  const parts = splat.split('/').filter(Boolean);
  return parts.map((part, index) => ({
    name: decode(part),
    href: `/storage/${parts.slice(0, index + 1).join('/')}`,
  }));
}

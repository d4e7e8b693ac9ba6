/** A file taken from a drop or a file input, with its path relative to what was dropped ('dir/sub/a.txt'). */
export interface DroppedFile {
  file: File;
  relativePath: string;
}

function readEntries(reader: FileSystemDirectoryReader): Promise<FileSystemEntry[]> {
  return new Promise((resolve, reject) => reader.readEntries(resolve, reject));
}

function fileOf(entry: FileSystemFileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function walk(entry: FileSystemEntry, prefix: string, out: DroppedFile[]): Promise<void> {
  if (entry.isFile) {
    out.push({ file: await fileOf(entry as FileSystemFileEntry), relativePath: `${prefix}${entry.name}` });
    return;
  }
  if (!entry.isDirectory) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  // readEntries answers in batches (100 in Chromium) until it answers an empty one.
  for (;;) {
    const batch = await readEntries(reader);
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, `${prefix}${entry.name}/`, out);
  }
}

/**
 * The files of a drop; dropped folders are read recursively and every file keeps its
 * path relative to the drop. Entries must be taken synchronously in the drop handler,
 * before the first await, or the browser empties the list.
 */
export async function readDrop(dataTransfer: DataTransfer): Promise<DroppedFile[]> {
  const items = Array.from(dataTransfer.items ?? []).filter((item) => item.kind === 'file');
  const entries = items.map((item) => (typeof item.webkitGetAsEntry === 'function' ? item.webkitGetAsEntry() : null));
  const plainFiles = Array.from(dataTransfer.files ?? []);
  if (entries.length === 0 || entries.some((entry) => entry === null)) {
    return plainFiles.map((file) => ({ file, relativePath: file.name }));
  }
  const out: DroppedFile[] = [];
  for (const entry of entries) await walk(entry as FileSystemEntry, '', out);
  return out;
}

/** Files picked in a file input (a folder input gives `webkitRelativePath`). */
export function filesFromInput(list: FileList | null): DroppedFile[] {
  return Array.from(list ?? []).map((file) => ({ file, relativePath: file.webkitRelativePath || file.name }));
}

/** Whether a drag carries files from outside the page (not an item dragged inside it). */
export function dragHasFiles(event: { dataTransfer: DataTransfer | null }): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files');
}

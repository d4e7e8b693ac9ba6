import { fileEntrySchema, type FileEntry } from '@bogwan/contracts';

/** Reads a list of file entries given as an array or as `{items}`. */
export const entriesAnswer = {
  parse(data: unknown): FileEntry[] {
    const list = Array.isArray(data) ? data : (data as { items?: unknown } | null)?.items;
    if (!Array.isArray(list)) throw new Error('expected a list of files');
    return list.map((entry) => fileEntrySchema.parse(entry));
  },
};

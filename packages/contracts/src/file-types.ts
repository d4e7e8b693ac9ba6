/** File-type categories by extension, as the specification lists them. */

export const FILE_CATEGORIES = ['image', 'text', 'video', 'audio', 'compressed', 'source', 'word', 'pdf', 'excel', 'hwp', 'url', 'file'] as const;
export type FileCategory = (typeof FILE_CATEGORIES)[number];

const EXTENSIONS: Record<Exclude<FileCategory, 'file'>, readonly string[]> = {
  image: ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'svg', 'ico', 'tif', 'tiff', 'heic', 'avif'],
  text: ['txt', 'md', 'csv', 'log', 'rtf', 'tsv'],
  video: ['mp4', 'webm', 'mov', 'avi', 'mkv', 'wmv', 'm4v', 'ogv'],
  audio: ['mp3', 'wav', 'ogg', 'flac', 'aac', 'm4a', 'wma', 'opus'],
  compressed: ['zip', '7z', 'rar', 'tar', 'gz', 'tgz', 'bz2', 'xz', 'zst', 'alz', 'egg'],
  source: [
    'js',
    'mjs',
    'cjs',
    'ts',
    'tsx',
    'jsx',
    'json',
    'html',
    'htm',
    'css',
    'scss',
    'xml',
    'yml',
    'yaml',
    'py',
    'java',
    'c',
    'h',
    'cpp',
    'hpp',
    'cs',
    'go',
    'rs',
    'rb',
    'php',
    'sh',
    'sql',
    'kt',
    'swift',
    'vue',
  ],
  word: ['doc', 'docx', 'odt', 'ppt', 'pptx', 'odp'],
  pdf: ['pdf'],
  excel: ['xls', 'xlsx', 'ods'],
  hwp: ['hwp', 'hwpx'],
  url: ['url', 'webloc'],
};

const BY_EXTENSION = new Map<string, FileCategory>(
  Object.entries(EXTENSIONS).flatMap(([category, exts]) => exts.map((ext) => [ext, category as FileCategory] as const)),
);

/** Lower-case extension of a file name without the dot, or '' when it has none. */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/** Category of a file name by its extension; 'file' when unknown. */
export function fileCategory(name: string): FileCategory {
  return BY_EXTENSION.get(extensionOf(name)) ?? 'file';
}

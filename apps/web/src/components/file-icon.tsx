import { fileCategory, type FileCategory } from '@bogwan/contracts';
import {
  mdiFileCodeOutline,
  mdiFileExcelOutline,
  mdiFileImageOutline,
  mdiFileLinkOutline,
  mdiFileMusicOutline,
  mdiFileOutline,
  mdiFilePdfBox,
  mdiFileVideoOutline,
  mdiFileWordOutline,
  mdiFolder,
  mdiFolderLock,
  mdiFolderZipOutline,
  mdiAlphaHBoxOutline,
  mdiTextBoxOutline,
} from '@mdi/js';
import type { SvgIconProps } from '@mui/material/SvgIcon';
import { MdiIcon } from './mdi-icon';

const ICONS: Record<FileCategory, { path: string; color: string }> = {
  image: { path: mdiFileImageOutline, color: '#8e24aa' },
  text: { path: mdiTextBoxOutline, color: '#607d8b' },
  video: { path: mdiFileVideoOutline, color: '#e53935' },
  audio: { path: mdiFileMusicOutline, color: '#fb8c00' },
  compressed: { path: mdiFolderZipOutline, color: '#6d4c41' },
  source: { path: mdiFileCodeOutline, color: '#00897b' },
  word: { path: mdiFileWordOutline, color: '#1e88e5' },
  pdf: { path: mdiFilePdfBox, color: '#d32f2f' },
  excel: { path: mdiFileExcelOutline, color: '#2e7d32' },
  hwp: { path: mdiAlphaHBoxOutline, color: '#0277bd' },
  url: { path: mdiFileLinkOutline, color: '#5e35b1' },
  file: { path: mdiFileOutline, color: '#78909c' },
};

/** The icon of a file by its category, or of a folder (locked or not). */
export function FileIcon({ name, folder, lock, ...props }: { name: string; folder: boolean; lock?: boolean } & Omit<SvgIconProps, 'children'>) {
  if (folder) return <MdiIcon path={lock ? mdiFolderLock : mdiFolder} htmlColor="#f5b400" {...props} />;
  const icon = ICONS[fileCategory(name)] ?? ICONS.file;
  return <MdiIcon path={icon.path} htmlColor={icon.color} {...props} />;
}

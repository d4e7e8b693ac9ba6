// The shape of a benchmark installation, the same on every database and at every scale:
// one root folder, 10,000 folders two levels deep, one folder of 100,000 files, the rest of
// the files spread over the other folders, some files and folders in the trash. Every file
// is derived from its index alone (name, text, hash), so both databases at a scale hold the
// same files and one blob directory serves both.
import { createHash } from 'node:crypto';

/** Top-level folders under the root, and sub-folders under each: 100 + 100 × 99 = 10,000 folders. */
export const DEPTS = 100;
export const TEAMS_PER_DEPT = 99;
/** Entries of the large folder (at scales below it, every file lies there). */
export const BIG_FOLDER_FILES = 100_000;
/** One file in TRASH_EVERY is an extra file in the trash (trashed on its own). */
export const TRASH_EVERY = 100;
/** Folders in the trash, each with FILES_PER_TRASHED_FOLDER files inside. */
export const TRASHED_FOLDERS = 10;
export const FILES_PER_TRASHED_FOLDER = 10;

/** A word only some names hold (one file in 1,000), never a text. */
export const NAME_WORD = 'quokka';
/** A word only some texts hold (one file in 1,000), never a name. */
export const CONTENT_WORD = 'zanzibar';
/** A word most names and texts hold. */
export const COMMON_WORD = '보고서';

export const ROOT_NAME = 'bench';
export const BIG_FOLDER_PATH = `/${ROOT_NAME}/dept-00/inbox`;
/** The folder the tree is expanded to (three levels open). */
export const TREE_PATH = `/${ROOT_NAME}/dept-42/team-42-07`;

const WORDS = [
  '보고서',
  '회의록',
  '사업계획',
  '예산',
  '결재',
  '계약서',
  '분기',
  '매출',
  '고객',
  '제안서',
  'budget',
  'report',
  'invoice',
  'contract',
  'design',
  'review',
  'minutes',
  'quarter',
  'sales',
  'summary',
];

export interface FolderSpec {
  /** Index in the folder list; 0..DEPTS-1 are the top-level ones. */
  index: number;
  name: string;
  /** Index of the parent folder; -1 for the root. */
  parent: number;
  trashed: boolean;
}

export interface FileSpec {
  /** Global index: decides name, text and hash. */
  index: number;
  folder: number;
  name: string;
  body: string;
  hash: string;
  /** A text file (indexed by the search indexer); else a file kind it skips. */
  text: boolean;
  mtime: string;
  trashed: boolean;
}

/** The 10,000 live folders, then the trashed ones. Index 1 (dept-00's first sub-folder) is the large folder. */
export function folderSpecs(): FolderSpec[] {
  const folders: FolderSpec[] = [];
  for (let d = 0; d < DEPTS; d += 1) folders.push({ index: d, name: `dept-${pad(d)}`, parent: -1, trashed: false });
  for (let d = 0; d < DEPTS; d += 1) {
    for (let t = 0; t < TEAMS_PER_DEPT; t += 1) {
      const index = folders.length;
      folders.push({ index, name: d === 0 && t === 0 ? 'inbox' : `team-${pad(d)}-${pad(t)}`, parent: d, trashed: false });
    }
  }
  for (let k = 0; k < TRASHED_FOLDERS; k += 1) folders.push({ index: folders.length, name: `old-${pad(k)}`, parent: k, trashed: true });
  return folders;
}

/** Index of the large folder in `folderSpecs()`. */
export const BIG_FOLDER = DEPTS;
export const LIVE_FOLDERS = DEPTS * (1 + TEAMS_PER_DEPT);

/** How many file rows an installation of `files` live files holds in all. */
export function fileCounts(files: number) {
  const trashedFiles = Math.floor(files / TRASH_EVERY);
  const inTrashedFolders = TRASHED_FOLDERS * FILES_PER_TRASHED_FOLDER;
  return { live: files, trashedFiles, inTrashedFolders, total: files + trashedFiles + inTrashedFolders };
}

/**
 * File number `index` of an installation of `files` live files: the first
 * min(files, 100,000) in the large folder, the other live ones spread over the other
 * folders, then the trashed files, then the files of the trashed folders.
 */
export function fileAt(index: number, files: number): FileSpec {
  const { trashedFiles } = fileCounts(files);
  const big = Math.min(files, BIG_FOLDER_FILES);
  let folder: number;
  let trashed = false;
  if (index < big) folder = BIG_FOLDER;
  else if (index < files) folder = spreadFolder(index - big);
  else if (index < files + trashedFiles) {
    folder = (index - files) % LIVE_FOLDERS;
    trashed = true;
  } else folder = LIVE_FOLDERS + Math.floor((index - files - trashedFiles) / FILES_PER_TRASHED_FOLDER);
  const random = lcg(index + 1);
  const text = index % 10 === 0;
  const first = index % 1000 === 7 ? NAME_WORD : WORDS[random() % WORDS.length]!;
  const name = `${first}-${WORDS[random() % WORDS.length]}-${index}.${text ? 'txt' : 'bin'}`;
  const words = Array.from({ length: 10 }, () => WORDS[random() % WORDS.length]!);
  if (index % 1000 === 0) words[5] = CONTENT_WORD;
  const body = `${words.join(' ')} #${index}\n`;
  const hash = createHash('sha256').update(body).digest('hex');
  // Spread over about a year, newest first.
  const mtime = new Date(Date.UTC(2026, 10, 1) - index * 31_000).toISOString();
  return { index, folder, name, body, hash, text, mtime, trashed };
}

/** The live folders other than the large one, round robin. */
function spreadFolder(n: number): number {
  const k = n % (LIVE_FOLDERS - 1);
  return k < BIG_FOLDER ? k : k + 1;
}

/** A small deterministic generator (numerical recipes LCG), so every run writes the same files. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state >>> 8;
  };
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}

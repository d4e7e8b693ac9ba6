import type { UploadCheckItem, UploadConflictAction } from '@bogwan/contracts';

/** What the user chose for one taken name: the server's two actions, or not sending the file at all. */
export type ConflictChoice = Exclude<UploadConflictAction, 'fail'> | 'skip';

/** One taken name of a drop: the file's relative path, what holds the name, and the name keep-both would give. */
export interface UploadConflict {
  name: string;
  kind: 'file' | 'folder';
  suggested: string;
}

/** The names of a check answer that are taken. */
export function conflictsOf(items: UploadCheckItem[]): UploadConflict[] {
  return items.filter((item) => item.exists).map((item) => ({ name: item.name, kind: item.kind ?? 'file', suggested: item.suggested }));
}

/** The choices a conflict offers: a folder of that name cannot be replaced by a file. */
export function choicesFor(conflict: UploadConflict): ConflictChoice[] {
  return conflict.kind === 'folder' ? ['keep-both', 'skip'] : ['replace', 'keep-both', 'skip'];
}

/** The first choice offered: replace a file (its old content stays as a version), keep both beside a folder. */
export function defaultChoice(conflict: UploadConflict): ConflictChoice {
  return choicesFor(conflict)[0]!;
}

/** `choice` for every conflict that offers it; the others keep their current choice. */
export function chooseForAll(conflicts: UploadConflict[], current: Map<string, ConflictChoice>, choice: ConflictChoice): Map<string, ConflictChoice> {
  return new Map(conflicts.map((c) => [c.name, choicesFor(c).includes(choice) ? choice : (current.get(c.name) ?? defaultChoice(c))]));
}

/**
 * The files to send with their action: a skipped file is left out (no byte of it is sent),
 * a free name goes with the default (`fail`: a name taken meanwhile is refused, never overwritten).
 */
export function applyChoices<T extends { relativePath: string }>(
  files: T[],
  choices: Map<string, ConflictChoice>,
): Array<T & { onConflict?: UploadConflictAction }> {
  return files.flatMap((file) => {
    const choice = choices.get(file.relativePath);
    if (choice === 'skip') return [];
    return [choice ? { ...file, onConflict: choice } : file];
  });
}

type Resolver = (target: string, conflicts: UploadConflict[]) => Promise<Map<string, ConflictChoice> | null>;
let resolver: Resolver | null = null;

/** Registers the dialog that asks (one at a time, mounted once in the layout); answers how to unregister it. */
export function setConflictResolver(next: Resolver): () => void {
  resolver = next;
  return () => {
    if (resolver === next) resolver = null;
  };
}

/** Asks the user about the taken names; null when they cancelled the upload. Without a dialog every file is skipped. */
export function resolveConflicts(target: string, conflicts: UploadConflict[]): Promise<Map<string, ConflictChoice> | null> {
  if (!resolver) return Promise.resolve(null);
  return resolver(target, conflicts);
}

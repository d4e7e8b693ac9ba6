/** Which entries of a list are selected, and the anchor a shift-click extends from. */
export interface Selection {
  /** Selected entries by path. */
  paths: ReadonlySet<string>;
  /** Index of the last plain or ctrl click. */
  anchor: number | null;
}

export const EMPTY_SELECTION: Selection = { paths: new Set(), anchor: null };

export interface ClickModifiers {
  /** Ctrl (or ⌘) held: toggle one entry. */
  toggle: boolean;
  /** Shift held: select the range from the anchor. */
  range: boolean;
}

/**
 * The selection after a click on entry `index` (path `path`). `pathAt` gives the path of
 * any loaded entry, or undefined for one not loaded yet (skipped in a range).
 */
export function clickSelection(
  current: Selection,
  index: number,
  path: string,
  modifiers: ClickModifiers,
  pathAt: (index: number) => string | undefined,
): Selection {
  if (modifiers.range && current.anchor !== null) {
    const [from, to] = current.anchor < index ? [current.anchor, index] : [index, current.anchor];
    const paths = new Set(modifiers.toggle ? current.paths : []);
    for (let i = from; i <= to; i += 1) {
      const at = pathAt(i);
      if (at !== undefined) paths.add(at);
    }
    return { paths, anchor: current.anchor };
  }
  if (modifiers.toggle) {
    const paths = new Set(current.paths);
    if (paths.has(path)) paths.delete(path);
    else paths.add(path);
    return { paths, anchor: index };
  }
  return { paths: new Set([path]), anchor: index };
}

import type { Notification } from '@bogwan/contracts';
import type { TFunction } from 'i18next';

/** One run of a rendered notification: plain text, bold or not. */
export interface NotePart {
  text: string;
  bold: boolean;
}

// Stands for a parameter while the catalogue text is split; no catalogue text holds it.
const MARK = '\u0000';
const PLACEHOLDER = new RegExp(`${MARK}(\\d+)${MARK}`);

/**
 * A keyed notification in the reader's language, as runs of text. The catalogue text may
 * mark emphasis with `<b>…</b>`; parameters (names, paths, reasons) are put in after the
 * text has been split, so whatever they hold is only ever text, never markup. Numbers go
 * to i18next as they are (the `count` plural forms).
 */
export function noteParts(t: TFunction, note: Pick<Notification, 'key' | 'params'>): NotePart[] {
  const strings: string[] = [];
  const values: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(note.params)) {
    if (typeof value === 'number') values[name] = value;
    else {
      values[name] = `${MARK}${strings.length}${MARK}`;
      strings.push(value);
    }
  }
  // Korean has a single plural form, so i18next never picks `_one` for it; a notification
  // about exactly one thing still reads as one thing ("보고서.hwp 파일을 업로드했습니다").
  // A string count renders as it is and picks no plural form.
  // (The `_one` form is a catalogue key of its own; typed as the key it is a form of.)
  const singleKey = `${note.key}_one` as typeof note.key;
  const single = values.count === 1 ? (t(singleKey, { ...values, count: '1', defaultValue: '' }) as string) : '';
  const template = single || (t(note.key, values) as string);
  const parts: NotePart[] = [];
  let bold = false;
  for (const piece of template.split(/(<\/?b>)/)) {
    if (piece === '<b>' || piece === '</b>') {
      bold = piece === '<b>';
      continue;
    }
    const runs = piece.split(PLACEHOLDER);
    const text = runs.map((run, i) => (i % 2 === 1 ? (strings[Number(run)] ?? '') : run)).join('');
    if (text) parts.push({ text, bold });
  }
  return parts;
}

/** The notification as one plain string (labels, search). */
export function noteText(t: TFunction, note: Pick<Notification, 'key' | 'params'>): string {
  return noteParts(t, note)
    .map((part) => part.text)
    .join('');
}

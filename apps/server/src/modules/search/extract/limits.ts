/** Text files: only this many bytes from the start are read (a range read; the rest never leaves the store). */
export const TEXT_BYTES_CAP = 1_048_576;
/** At most this many characters of text are kept per file. */
export const TEXT_CHARS_CAP = 1_048_576;
/** Documents (PDF, HWP, office zips) are parsed whole in memory, so larger ones are not extracted. */
export const DOCUMENT_BYTES_CAP = 32 * 1_048_576;
/** Decompressed XML read from one office document, whatever its parts claim (zip bombs). */
export const XML_BYTES_CAP = 16 * 1_048_576;

/** Text cut to the character cap; says whether anything was cut. */
export function capText(text: string): { text: string; truncated: boolean } {
  if (text.length <= TEXT_CHARS_CAP) return { text, truncated: false };
  // Never leave half of a surrogate pair at the end.
  let end = TEXT_CHARS_CAP;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return { text: text.slice(0, end), truncated: true };
}

/** Collapses runs of blank space so the stored text and snippets read cleanly. */
export function tidy(text: string): string {
  return text
    .replaceAll('\u0000', '')
    .replace(/[ \t\f\v\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
}

/**
 * Character pairs of extracted texts, for keywords of two characters (too short for any
 * trigram index; two Korean syllables are the usual case). Each distinct pair of the text
 * is indexed, lower-cased character by character; pairs holding blank space are left out,
 * since a keyword is trimmed and so never holds one.
 */

/** A character lower-cased when that keeps it one character (so pairs stay pairs). */
function fold(char: string): string {
  const lower = char.toLowerCase();
  return [...lower].length === 1 ? lower : char;
}

const BLANK = /\s/u;

/** The distinct folded pairs of `text`. */
export function textBigrams(text: string): string[] {
  const pairs = new Set<string>();
  let previous = '';
  for (const char of text) {
    const current = BLANK.test(char) ? '' : fold(char);
    if (previous && current) pairs.add(previous + current);
    previous = current;
  }
  return [...pairs];
}

/** The pair a two-character keyword is looked up by (the same folding as the texts). */
export function keywordBigram(keyword: string): string {
  return [...keyword].map(fold).join('');
}

/** A pair as one token for SQLite's full-text index: the hex of its UTF-8 bytes (no tokenizer splits it). */
export function bigramToken(pair: string): string {
  return Buffer.from(pair, 'utf8').toString('hex');
}

/** Characters kept before the match in a snippet, and the snippet's length. */
export const SNIPPET_BEFORE = 40;
export const SNIPPET_LENGTH = 160;

/**
 * A snippet as shown: white space folded, and starting at a word boundary. A passage cut out
 * of the middle of a text (`cut`) loses the partial word (or Korean eojeol) it starts in; the
 * match itself, `SNIPPET_BEFORE` characters in, is always kept. When the whole lead-in is one
 * word, the snippet starts at that word's nearest boundary before the match, or at the match
 * with an ellipsis when there is none.
 */
export function tidySnippet(passage: string, cut: boolean): string {
  if (!cut) return fold(passage);
  const chars = Array.from(passage);
  const lead = chars.slice(0, SNIPPET_BEFORE).join('');
  const rest = chars.slice(SNIPPET_BEFORE).join('');
  const boundary = lead.search(/\s/);
  if (boundary >= 0) return fold(lead.slice(boundary) + rest);
  return `…${fold(rest)}`;
}

function fold(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

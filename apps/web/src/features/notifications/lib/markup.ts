/**
 * A notification message holds a little markup (the server keeps b, strong, i, em, br and
 * span). It is never handed to the browser as HTML: this parser turns it into a tree of
 * those tags and text, dropping every attribute, every other tag, and the contents of
 * script and style. Entities are decoded into text, so React escapes them again.
 */

export const ALLOWED_TAGS = ['b', 'strong', 'i', 'em', 'br', 'span'] as const;
export type AllowedTag = (typeof ALLOWED_TAGS)[number];

export type MarkupNode = string | { tag: AllowedTag; children: MarkupNode[] };

/** Tags whose contents are dropped with them. */
const DROPPED_WITH_BODY = new Set(['script', 'style', 'template', 'iframe', 'object', 'noscript', 'textarea', 'title']);
const VOID = new Set(['br', 'img', 'hr', 'input', 'meta', 'link', 'wbr', 'source', 'area', 'base', 'col', 'embed', 'param', 'track']);
const MAX_DEPTH = 16;

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body.toLowerCase()] ?? whole;
  });
}

function isAllowed(tag: string): tag is AllowedTag {
  return (ALLOWED_TAGS as readonly string[]).includes(tag);
}

// A tag: `<name ...>`, `</name>`, `<name/>`; attribute values may hold `>` inside quotes.
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g;
const COMMENT = /<!--[\s\S]*?(?:-->|$)|<![^>]*>|<\?[^>]*>/g;

/** Parses a message into allowed tags and text. */
export function parseMarkup(input: string): MarkupNode[] {
  const source = input.replace(COMMENT, '');
  const root: { tag: AllowedTag | null; children: MarkupNode[] } = { tag: null, children: [] };
  const stack: Array<{ tag: string; node: { children: MarkupNode[] } | null }> = [{ tag: '#root', node: root }];
  let dropping: string | null = null;
  let last = 0;

  const current = () => {
    for (let i = stack.length - 1; i >= 0; i -= 1) {
      const node = stack[i]?.node;
      if (node) return node;
    }
    return root;
  };
  const pushText = (text: string) => {
    if (dropping || !text) return;
    // Stray angle brackets left by broken markup are shown as text, harmlessly.
    const decoded = decodeEntities(text);
    const children = current().children;
    const previous = children.at(-1);
    if (typeof previous === 'string') children[children.length - 1] = previous + decoded;
    else children.push(decoded);
  };

  for (const match of source.matchAll(TAG)) {
    const [whole, slash, rawName] = match as unknown as [string, string, string];
    const index = match.index ?? 0;
    pushText(source.slice(last, index));
    last = index + whole.length;
    const name = rawName.toLowerCase();
    const closing = slash === '/';

    if (dropping) {
      if (closing && name === dropping) dropping = null;
      continue;
    }
    if (!closing && DROPPED_WITH_BODY.has(name)) {
      if (!whole.endsWith('/>')) dropping = name;
      continue;
    }
    if (closing) {
      // Close up to the matching open tag, if there is one.
      const at = stack.map((entry) => entry.tag).lastIndexOf(name);
      if (at > 0) stack.length = at;
      continue;
    }
    const selfClosing = VOID.has(name) || whole.endsWith('/>');
    if (isAllowed(name)) {
      const node = { tag: name, children: [] as MarkupNode[] };
      if (stack.length <= MAX_DEPTH) current().children.push(node);
      if (!selfClosing && name !== 'br') stack.push({ tag: name, node: stack.length <= MAX_DEPTH ? node : null });
    } else if (!selfClosing) {
      // An unknown tag vanishes; its text stays, in the parent.
      stack.push({ tag: name, node: null });
    }
  }
  pushText(source.slice(last));
  return root.children;
}

/** The message as plain text (tags dropped, line breaks as spaces). */
export function markupText(input: string): string {
  const walk = (nodes: MarkupNode[]): string => nodes.map((node) => (typeof node === 'string' ? node : node.tag === 'br' ? ' ' : walk(node.children))).join('');
  return walk(parseMarkup(input)).replace(/\s+/g, ' ').trim();
}

// The WebDAV If header (RFC 4918 section 10.4): a parser and an evaluator.

/** Longest If header accepted; past it the request is malformed (400). */
export const MAX_IF_HEADER_LENGTH = 8192;
/** Most conditions in one header (all lists together). */
export const MAX_IF_CONDITIONS = 128;

/** One condition of a list: a state token `<…>` or an entity tag `[…]`, maybe negated. */
export type IfCondition = { not: boolean; token: string; etag?: undefined } | { not: boolean; etag: string; token?: undefined };

/** A list: all its conditions must hold. `resource` is the tag of a tagged list (null: the Request-URI). */
export interface IfList {
  resource: string | null;
  conditions: IfCondition[];
}

export class MalformedIfHeader extends Error {
  constructor(reason: string) {
    super(`malformed If header: ${reason}`);
    this.name = 'MalformedIfHeader';
  }
}

/**
 * Parses an If header into its lists, in order. Tagged and untagged lists may not be mixed;
 * throws `MalformedIfHeader` for anything the grammar does not allow, or past the bounds.
 */
export function parseIfHeader(header: string): IfList[] {
  if (header.length > MAX_IF_HEADER_LENGTH) throw new MalformedIfHeader('too long');
  const lists: IfList[] = [];
  let at = 0;
  let tagged: boolean | undefined;
  let resource: string | null = null;
  let conditions = 0;
  const skipSpace = () => {
    while (at < header.length && ' \t\r\n'.includes(header[at]!)) at += 1;
  };
  const readUntil = (close: string, what: string): string => {
    const end = header.indexOf(close, at + 1);
    if (end < 0) throw new MalformedIfHeader(`unterminated ${what}`);
    const value = header.slice(at + 1, end);
    at = end + 1;
    return value;
  };
  skipSpace();
  if (at >= header.length) throw new MalformedIfHeader('empty');
  while (at < header.length) {
    if (header[at] === '<') {
      if (tagged === false) throw new MalformedIfHeader('tagged list after untagged one');
      tagged = true;
      resource = readUntil('>', 'resource tag');
      if (resource === '' || /[\s<>]/.test(resource)) throw new MalformedIfHeader('bad resource tag');
      skipSpace();
      if (header[at] !== '(') throw new MalformedIfHeader('resource tag without a list');
      continue;
    }
    if (header[at] !== '(') throw new MalformedIfHeader(`unexpected ${JSON.stringify(header[at])}`);
    if (tagged === undefined) tagged = false;
    at += 1;
    const list: IfList = { resource: tagged ? resource : null, conditions: [] };
    for (;;) {
      skipSpace();
      if (header[at] === ')') {
        at += 1;
        break;
      }
      let not = false;
      if (header.startsWith('Not', at) || header.startsWith('not', at) || header.startsWith('NOT', at)) {
        not = true;
        at += 3;
        skipSpace();
      }
      if (header[at] === '<') {
        const token = readUntil('>', 'state token');
        if (!/^[A-Za-z][A-Za-z0-9+.-]*:\S+$/.test(token) || /[<>]/.test(token)) throw new MalformedIfHeader('bad state token');
        list.conditions.push({ not, token });
      } else if (header[at] === '[') {
        const etag = readUntil(']', 'entity tag');
        if (!/^(W\/)?"[^"]*"$/.test(etag)) throw new MalformedIfHeader('bad entity tag');
        list.conditions.push({ not, etag });
      } else {
        throw new MalformedIfHeader(at >= header.length ? 'unterminated list' : 'bad condition');
      }
      conditions += 1;
      if (conditions > MAX_IF_CONDITIONS) throw new MalformedIfHeader('too many conditions');
    }
    if (list.conditions.length === 0) throw new MalformedIfHeader('empty list');
    lists.push(list);
    skipSpace();
  }
  return lists;
}

/** What the evaluator needs to know about resources (tree paths). */
export interface IfState {
  /** Current ETag (with quotes) of the resource, or null when nothing is there. */
  etagOf(path: string): Promise<string | null>;
  /** Tokens of the active locks that a state token may name for this resource (see `evaluateIf`). */
  tokensFor(path: string): Promise<Set<string>>;
}

/** The outcome of an If header: whether it holds, and the lock tokens it submits. */
export interface IfOutcome {
  holds: boolean;
  /** Tokens named without `Not` in lists that held: the client has shown it knows them. */
  submitted: Set<string>;
}

/**
 * Evaluates parsed lists: the header holds when one list holds; a list holds when all its
 * conditions do, on the list's resource (its tag, mapped by `pathOfHref`, else `requestPath`).
 * A state token holds when it is one of `state.tokensFor(resource)`; an entity tag when it is
 * the resource's ETag (exact comparison; a missing resource has none). A tag naming no
 * resource of ours makes its lists fail.
 */
export async function evaluateIf(lists: IfList[], requestPath: string, pathOfHref: (href: string) => string | null, state: IfState): Promise<IfOutcome> {
  const submitted = new Set<string>();
  let holds = false;
  const etags = new Map<string, Promise<string | null>>();
  const tokens = new Map<string, Promise<Set<string>>>();
  const memo = <T>(cache: Map<string, Promise<T>>, path: string, read: (path: string) => Promise<T>) => {
    let value = cache.get(path);
    if (!value) {
      value = read(path);
      cache.set(path, value);
    }
    return value;
  };
  for (const list of lists) {
    const path = list.resource === null ? requestPath : pathOfHref(list.resource);
    if (path === null) continue;
    let listHolds = true;
    for (const condition of list.conditions) {
      const matches =
        condition.token !== undefined
          ? (await memo(tokens, path, (p) => state.tokensFor(p))).has(condition.token)
          : (await memo(etags, path, (p) => state.etagOf(p))) === condition.etag;
      if (matches === condition.not) {
        listHolds = false;
        break;
      }
    }
    if (!listHolds) continue;
    holds = true;
    for (const condition of list.conditions) if (condition.token !== undefined && !condition.not) submitted.add(condition.token);
  }
  return { holds, submitted };
}

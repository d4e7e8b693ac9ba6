/**
 * A small namespace-aware XML reader and writer for WebDAV bodies (docs/decisions.md,
 * "WebDAV: our own XML reader"). It reads what RFC 4918 bodies hold (elements,
 * attributes, text, CDATA, comments, processing instructions, the five predefined
 * entities and character references) and refuses everything else: any DOCTYPE (so no
 * entity can be declared, expanded or fetched), unknown entities, unbalanced tags and
 * undeclared prefixes. Input is bounded by the caller (dav-body.ts).
 */

export const DAV_NS = 'DAV:';

export interface XmlElement {
  /** The namespace URI ('' when none). */
  ns: string;
  local: string;
  attributes: Record<string, string>;
  children: XmlNode[];
}

export type XmlNode = XmlElement | string;

/** A body that is not the XML this reader accepts. */
export class XmlError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlError';
  }
}

/** How deep elements may nest (a WebDAV body needs a handful of levels). */
const MAX_DEPTH = 64;
const NAME = /^[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*(?::[A-Za-z_\u00C0-\uFFFF][\w.\-\u00B7\u00C0-\uFFFF]*)?$/;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Parses a document; answers its root element. Throws XmlError on anything malformed or refused. */
export function parseXml(text: string): XmlElement {
  const source = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let at = 0;
  const stack: { element: XmlElement; qname: string; scope: Map<string, string> }[] = [];
  let root: XmlElement | undefined;
  let scope = new Map<string, string>([['xml', 'http://www.w3.org/XML/1998/namespace']]);

  const fail = (why: string): never => {
    throw new XmlError(`${why} at ${at}`);
  };
  const addText = (value: string) => {
    const top = stack.at(-1);
    if (!top) {
      if (value.trim() !== '') fail('text outside the root element');
      return;
    }
    top.element.children.push(value);
  };

  while (at < source.length) {
    const lt = source.indexOf('<', at);
    if (lt === -1) {
      addText(decode(source.slice(at), fail));
      break;
    }
    if (lt > at) addText(decode(source.slice(at, lt), fail));
    at = lt;
    if (source.startsWith('<?', at)) {
      const end = source.indexOf('?>', at);
      if (end === -1) fail('unterminated processing instruction');
      at = end + 2;
    } else if (source.startsWith('<!--', at)) {
      const end = source.indexOf('-->', at + 4);
      if (end === -1) fail('unterminated comment');
      at = end + 3;
    } else if (source.startsWith('<![CDATA[', at)) {
      const end = source.indexOf(']]>', at);
      if (end === -1 || stack.length === 0) fail('misplaced CDATA');
      addText(source.slice(at + 9, end));
      at = end + 3;
    } else if (source.startsWith('<!', at)) {
      fail('DOCTYPE and declarations are refused');
    } else if (source.startsWith('</', at)) {
      const end = source.indexOf('>', at);
      if (end === -1) fail('unterminated end tag');
      const qname = source.slice(at + 2, end).trim();
      const open = stack.pop();
      if (!open || open.qname !== qname) fail('mismatched end tag');
      scope = stack.at(-1)?.scope ?? new Map([['xml', 'http://www.w3.org/XML/1998/namespace']]);
      at = end + 1;
    } else {
      const tag = readTag(source, at, fail);
      at = tag.end;
      if (root && stack.length === 0) fail('a second root element');
      if (stack.length >= MAX_DEPTH) fail('elements nested too deep');
      const own = new Map(scope);
      const plain: [string, string][] = [];
      for (const [name, value] of tag.attributes) {
        if (name === 'xmlns') own.set('', value);
        else if (name.startsWith('xmlns:')) {
          if (value === '') fail('an empty namespace for a prefix');
          own.set(name.slice(6), value);
        } else plain.push([name, value]);
      }
      const element: XmlElement = { ...resolve(tag.qname, own, true, fail), attributes: {}, children: [] };
      for (const [name, value] of plain) {
        const { ns, local } = resolve(name, own, false, fail);
        element.attributes[ns ? `{${ns}}${local}` : local] = value;
      }
      const parent = stack.at(-1);
      if (parent) parent.element.children.push(element);
      else root = element;
      if (!tag.selfClosing) {
        stack.push({ element, qname: tag.qname, scope: own });
        scope = own;
      }
    }
  }
  if (!root) fail('no root element');
  if (stack.length > 0) fail('unclosed element');
  return root!;
}

function readTag(source: string, start: number, fail: (why: string) => never) {
  let at = start + 1;
  const nameEnd = /[\s/>]/g;
  nameEnd.lastIndex = at;
  const found = nameEnd.exec(source);
  if (!found) fail('unterminated start tag');
  const qname = source.slice(at, found!.index);
  if (!NAME.test(qname)) fail('bad element name');
  at = found!.index;
  const attributes: [string, string][] = [];
  const seen = new Set<string>();
  for (;;) {
    while (at < source.length && /\s/.test(source[at]!)) at++;
    if (source.startsWith('/>', at)) return { qname, attributes, selfClosing: true, end: at + 2 };
    if (source[at] === '>') return { qname, attributes, selfClosing: false, end: at + 1 };
    const attribute = /^([^\s=/>]+)\s*=\s*("([^"<]*)"|'([^'<]*)')/.exec(source.slice(at, at + 65_536));
    if (!attribute) fail('bad attribute');
    const name = attribute![1]!;
    if (!NAME.test(name) || seen.has(name)) fail('bad or repeated attribute');
    seen.add(name);
    attributes.push([name, decode(attribute![3] ?? attribute![4] ?? '', fail)]);
    at += attribute![0].length;
  }
}

function resolve(qname: string, scope: Map<string, string>, isElement: boolean, fail: (why: string) => never): { ns: string; local: string } {
  const colon = qname.indexOf(':');
  if (colon === -1) return { ns: isElement ? (scope.get('') ?? '') : '', local: qname };
  const ns = scope.get(qname.slice(0, colon));
  if (ns === undefined) fail(`undeclared prefix in ${qname}`);
  return { ns: ns!, local: qname.slice(colon + 1) };
}

function decode(text: string, fail: (why: string) => never): string {
  return text.replace(/&([^;&\s]{0,10});?/g, (match, name: string) => {
    if (!match.endsWith(';')) fail('a bare ampersand');
    if (name.startsWith('#')) {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      if (!Number.isInteger(code) || code <= 0 || code > 0x10ffff || (code < 0x20 && code !== 9 && code !== 10 && code !== 13)) fail('bad character reference');
      return String.fromCodePoint(code);
    }
    const value = ENTITIES[name];
    if (value === undefined) fail(`unknown entity ${name}`);
    return value!;
  });
}

/** The child elements of an element (text left out). */
export function elementsOf(element: XmlElement): XmlElement[] {
  return element.children.filter((child): child is XmlElement => typeof child !== 'string');
}

/** The first child element with this namespace and local name. */
export function childOf(element: XmlElement, ns: string, local: string): XmlElement | undefined {
  return elementsOf(element).find((child) => child.ns === ns && child.local === local);
}

/** The text inside an element and its descendants. */
export function textOf(element: XmlElement): string {
  return element.children.map((child) => (typeof child === 'string' ? child : textOf(child))).join('');
}

/** Escapes text for element content and attribute values. */
export function escapeXml(text: string): string {
  // Most names and values have nothing to escape: answered as they are (PROPFIND escapes several per entry).
  if (!XML_SPECIAL.test(text)) return text;
  return text.replace(/[<>&"']/g, (c) => XML_ESCAPES[c]!);
}

const XML_SPECIAL = /[<>&"']/;
const XML_ESCAPES: Record<string, string> = { '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' };

/**
 * An element written with its namespace declared on itself: `<D:name>` for DAV:, `<x:name
 * xmlns:x="…">` for others, `<name xmlns="">` for none. `content` is XML already escaped.
 */
export function elementXml(ns: string, local: string, content: string): string {
  const open = ns === DAV_NS ? `D:${local}` : ns === '' ? local : `x:${local}`;
  const declaration = ns === DAV_NS ? '' : ns === '' ? ' xmlns=""' : ` xmlns:x="${escapeXml(ns)}"`;
  return content === '' ? `<${open}${declaration}/>` : `<${open}${declaration}>${content}</${open}>`;
}

/**
 * Writes an element's content back as XML, each child element declaring its own namespace
 * (prefixes of the original document are not kept). For dead property values.
 */
export function contentXml(element: XmlElement): string {
  let prefixes = 0;
  const write = (node: XmlNode): string => {
    if (typeof node === 'string') return escapeXml(node);
    const prefix = node.ns === '' ? '' : `p${prefixes++}`;
    const qname = prefix ? `${prefix}:${node.local}` : node.local;
    const declaration = prefix ? ` xmlns:${prefix}="${escapeXml(node.ns)}"` : ' xmlns=""';
    const attributes = Object.entries(node.attributes)
      .filter(([name]) => !name.startsWith('{'))
      .map(([name, value]) => ` ${name}="${escapeXml(value)}"`)
      .join('');
    const inner = node.children.map(write).join('');
    return inner === '' ? `<${qname}${declaration}${attributes}/>` : `<${qname}${declaration}${attributes}>${inner}</${qname}>`;
  };
  return element.children.map(write).join('');
}

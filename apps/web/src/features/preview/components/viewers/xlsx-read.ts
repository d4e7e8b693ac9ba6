// Reads the first sheets of an .xlsx workbook as tables of text, without a workbook library:
// the zip's central directory, the entries needed (workbook, its relationships, shared
// strings, styles, the sheets shown) inflated by the platform's DecompressionStream, and
// their XML scanned for what a table shows. Runs in a worker (xlsx.worker.ts). The text of a
// cell is what the earlier exceljs-based viewer showed (see xlsx-read.test.ts).

/** Sheets, rows and columns shown at most. */
export const XLSX_LIMITS = { sheets: 5, rows: 500, columns: 50 } as const;

export interface SheetTable {
  name: string;
  /** `rows` × `columns` texts; every row has the same length. */
  rows: string[][];
  truncated: boolean;
}

export type Inflate = (data: Uint8Array) => Promise<Uint8Array>;

/** Raw deflate through the platform (browsers, workers and Node 20). */
export const inflateRaw: Inflate = async (data) => {
  const stream = new Blob([data as BlobPart]).stream().pipeThrough(new DecompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
};

interface ZipEntry {
  method: number;
  compressedSize: number;
  localOffset: number;
}

/** The entries of a zip archive by name, from its central directory. */
function zipEntries(bytes: Uint8Array): Map<string, ZipEntry> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end-of-central-directory record: 22 bytes plus a comment of up to 65535.
  let end = -1;
  for (let i = bytes.length - 22; i >= Math.max(0, bytes.length - 22 - 0xffff); i -= 1) {
    if (view.getUint32(i, true) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error('not a zip archive');
  const count = view.getUint16(end + 10, true);
  let offset = view.getUint32(end + 16, true);
  if (offset === 0xffffffff || count === 0xffff) throw new Error('zip64 archives are not read');
  const decoder = new TextDecoder();
  const entries = new Map<string, ZipEntry>();
  for (let n = 0; n < count; n += 1) {
    if (view.getUint32(offset, true) !== 0x02014b50) throw new Error('broken zip central directory');
    const nameLength = view.getUint16(offset + 28, true);
    const extraLength = view.getUint16(offset + 30, true);
    const commentLength = view.getUint16(offset + 32, true);
    const name = decoder.decode(bytes.subarray(offset + 46, offset + 46 + nameLength));
    entries.set(name, {
      method: view.getUint16(offset + 10, true),
      compressedSize: view.getUint32(offset + 20, true),
      localOffset: view.getUint32(offset + 42, true),
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Reads entries of one archive as text, by name; a missing entry is null. */
function zipReader(bytes: Uint8Array, inflate: Inflate) {
  const entries = zipEntries(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const decoder = new TextDecoder();
  return async (name: string): Promise<string | null> => {
    const entry = entries.get(name);
    if (!entry) return null;
    const local = entry.localOffset;
    if (view.getUint32(local, true) !== 0x04034b50) throw new Error(`broken zip entry ${name}`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + entry.compressedSize);
    if (entry.method === 0) return decoder.decode(data);
    if (entry.method === 8) return decoder.decode(await inflate(data));
    throw new Error(`zip method ${entry.method} is not read`);
  };
}

const ENTITY = /&(?:#(\d+)|#x([0-9a-fA-F]+)|(lt|gt|amp|quot|apos));/g;
const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeXml(text: string): string {
  if (!text.includes('&')) return text;
  return text.replace(ENTITY, (_all, dec: string | undefined, hex: string | undefined, name: string | undefined) =>
    dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(Number.parseInt(hex, 16)) : NAMED[name!]!,
  );
}

/** The attributes of a start tag's inside (`name="value"`, any namespace prefix dropped). */
function attributes(tag: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of tag.matchAll(/([\w:.-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) {
    const name = match[1]!;
    const value = decodeXml(match[2] ?? match[3] ?? '');
    found[name] = value;
    const local = name.slice(name.indexOf(':') + 1);
    if (!(local in found)) found[local] = value;
  }
  return found;
}

/** Every element `name` (any prefix), empty or not: its attributes and its inside. */
function* elements(xml: string, name: string): Generator<{ attrs: string; body: string }> {
  const pattern = new RegExp(`<(?:[\\w.-]+:)?${name}\\b([^>]*?)(?:/>|>([\\s\\S]*?)</(?:[\\w.-]+:)?${name}>)`, 'g');
  for (const match of xml.matchAll(pattern)) yield { attrs: match[1] ?? '', body: match[2] ?? '' };
}

/** The text of the `<t>` elements in `xml` (a shared string, an inline string), phonetic runs left out. */
function textOf(xml: string): string {
  const plain = xml.replace(/<(?:[\w.-]+:)?rPh\b[\s\S]*?<\/(?:[\w.-]+:)?rPh>/g, '');
  let text = '';
  for (const t of elements(plain, 't')) text += decodeXml(t.body);
  return text;
}

/** A relationship target made a path inside the archive, relative to the part at `base`. */
function resolvePart(base: string, target: string): string {
  if (target.startsWith('/')) return target.slice(1);
  const parts = base.split('/').slice(0, -1);
  for (const segment of target.split('/')) {
    if (segment === '..') parts.pop();
    else if (segment !== '.') parts.push(segment);
  }
  return parts.join('/');
}

/** A part's relationships: id → { type, path }. */
function relationships(xml: string | null, base: string): Map<string, { type: string; path: string }> {
  const found = new Map<string, { type: string; path: string }>();
  for (const rel of elements(xml ?? '', 'Relationship')) {
    const a = attributes(rel.attrs);
    if (a.Id && a.Target && a.TargetMode !== 'External') found.set(a.Id, { type: a.Type ?? '', path: resolvePart(base, a.Target) });
  }
  return found;
}

function relsPath(part: string): string {
  const slash = part.lastIndexOf('/');
  return `${part.slice(0, slash + 1)}_rels/${part.slice(slash + 1)}.rels`;
}

/** The built-in number formats that are dates or times (ECMA-376 18.8.30, as exceljs reads them). */
const BUILT_IN_DATE_FORMATS = new Set([14, 15, 16, 17, 18, 19, 20, 21, 22, 45, 46, 47]);

/** A format code is a date when, outside quotes and brackets, it has a date or time letter. */
export function isDateFormat(code: string): boolean {
  return /[ymdhMsb]/.test(code.replace(/\[[^\]]*]/g, '').replace(/"[^"]*"/g, ''));
}

/** Which cell styles (index into cellXfs) format numbers as dates. */
function dateStyles(xml: string | null): Set<number> {
  const dates = new Set<number>();
  if (!xml) return dates;
  const custom = new Map<number, string>();
  for (const format of elements(xml, 'numFmt')) {
    const a = attributes(format.attrs);
    if (a.numFmtId && a.formatCode !== undefined) custom.set(Number(a.numFmtId), a.formatCode);
  }
  const cellXfs = [...elements(xml, 'cellXfs')][0]?.body ?? '';
  let index = 0;
  for (const xf of elements(cellXfs, 'xf')) {
    const id = Number(attributes(xf.attrs).numFmtId ?? 0);
    if (id) {
      const code = custom.get(id);
      if (code !== undefined ? isDateFormat(code) : BUILT_IN_DATE_FORMATS.has(id)) dates.add(index);
    }
    index += 1;
  }
  return dates;
}

/** An Excel serial date as the day it names, yyyy-mm-dd (as exceljs converts it). */
function serialDate(serial: number, date1904: boolean): string {
  const date = new Date(Math.round((serial - 25569 + (date1904 ? 1462 : 0)) * 86_400_000));
  return Number.isNaN(date.getTime()) ? String(serial) : date.toISOString().slice(0, 10);
}

/** "BC12" → column 55, row 12 (both from 1). */
function cellAddress(ref: string): { row: number; column: number } | null {
  const match = /^\$?([A-Za-z]{1,3})\$?(\d+)$/.exec(ref);
  if (!match) return null;
  let column = 0;
  for (const letter of match[1]!.toUpperCase()) column = column * 26 + letter.charCodeAt(0) - 64;
  return { row: Number(match[2]), column };
}

interface SheetContext {
  shared: (index: number) => string;
  dates: Set<number>;
  date1904: boolean;
}

function numberText(raw: string, style: number | undefined, context: SheetContext): string {
  const value = Number.parseFloat(raw);
  if (Number.isNaN(value)) return raw.trim();
  return style !== undefined && context.dates.has(style) ? serialDate(value, context.date1904) : String(value);
}

/** The text a cell shows: its value, or its formula's last result. */
function cellText(attrs: Record<string, string>, body: string, context: SheetContext): string {
  const type = attrs.t ?? 'n';
  const style = attrs.s === undefined ? undefined : Number(attrs.s);
  const v = [...elements(body, 'v')][0];
  const raw = v ? decodeXml(v.body) : undefined;
  if (type === 'inlineStr') {
    const inline = [...elements(body, 'is')][0];
    return inline ? textOf(inline.body) : (raw ?? '');
  }
  if (raw === undefined || raw === '') return '';
  switch (type) {
    case 's':
      return /^\s*\d+\s*$/.test(raw) ? context.shared(Number(raw)) : raw;
    case 'str':
    case 'e':
      return raw;
    case 'b':
      return String(Number.parseInt(raw, 10) !== 0);
    case 'd':
      return raw.slice(0, 10);
    default:
      return numberText(raw, style, context);
  }
}

/** One sheet's table, capped at `limits`; the counts that decide truncation cover the whole sheet. */
function readSheet(name: string, xml: string, context: SheetContext): SheetTable {
  const texts = new Map<number, Map<number, string>>();
  let rowCount = 0;
  let columnCount = 0;
  let rowNumber = 0;
  for (const row of elements(xml, 'row')) {
    const r = attributes(row.attrs).r;
    rowNumber = r ? Number(r) : rowNumber + 1;
    rowCount = Math.max(rowCount, rowNumber);
    let columnNumber = 0;
    let lastColumn = 0;
    let hasValues = false;
    const keep = rowNumber <= XLSX_LIMITS.rows;
    for (const cell of elements(row.body, 'c')) {
      const attrs = attributes(cell.attrs);
      const address = attrs.r ? cellAddress(attrs.r) : null;
      columnNumber = address ? address.column : columnNumber + 1;
      lastColumn = Math.max(lastColumn, columnNumber);
      // A cell with only a style has no value; one with neither value nor style counts as one.
      const empty = !/<(?:[\w.-]+:)?(?:v|f|is)\b/.test(cell.body);
      if (!empty || attrs.s === undefined) hasValues = true;
      if (keep && columnNumber <= XLSX_LIMITS.columns && !empty) {
        const text = cellText(attrs, cell.body, context);
        if (text !== '') {
          if (!texts.has(rowNumber)) texts.set(rowNumber, new Map());
          texts.get(rowNumber)!.set(columnNumber, text);
        }
      }
    }
    if (hasValues) columnCount = Math.max(columnCount, lastColumn);
  }
  // A merged range shows its first cell's text in every cell, and counts as cells with values.
  for (const merge of elements(xml, 'mergeCell')) {
    const [from, to] = (attributes(merge.attrs).ref ?? '').split(':').map(cellAddress);
    if (!from || !to) continue;
    rowCount = Math.max(rowCount, to.row);
    columnCount = Math.max(columnCount, to.column);
    const text = texts.get(from.row)?.get(from.column) ?? '';
    if (text === '') continue;
    for (let r = from.row; r <= Math.min(to.row, XLSX_LIMITS.rows); r += 1) {
      if (!texts.has(r)) texts.set(r, new Map());
      for (let c = from.column; c <= Math.min(to.column, XLSX_LIMITS.columns); c += 1) texts.get(r)!.set(c, text);
    }
  }
  const shownRows = Math.min(rowCount, XLSX_LIMITS.rows);
  const shownColumns = Math.min(columnCount, XLSX_LIMITS.columns);
  const rows: string[][] = [];
  for (let r = 1; r <= shownRows; r += 1) {
    const cells = texts.get(r);
    rows.push(Array.from({ length: shownColumns }, (_, c) => cells?.get(c + 1) ?? ''));
  }
  return { name, rows, truncated: rowCount > XLSX_LIMITS.rows || columnCount > XLSX_LIMITS.columns };
}

/** The first sheets of an .xlsx workbook (in the workbook's order, hidden ones included) as tables. */
export async function readXlsx(bytes: Uint8Array, inflate: Inflate = inflateRaw): Promise<SheetTable[]> {
  const read = zipReader(bytes, inflate);
  const rootRels = relationships(await read('_rels/.rels'), '');
  const workbookPath = [...rootRels.values()].find((rel) => rel.type.endsWith('/officeDocument'))?.path ?? 'xl/workbook.xml';
  const workbook = await read(workbookPath);
  if (workbook === null) throw new Error('no workbook in the archive');
  const rels = relationships(await read(relsPath(workbookPath)), workbookPath);
  const partOf = (kind: string) => [...rels.values()].find((rel) => rel.type.endsWith(`/${kind}`))?.path;

  const sharedPath = partOf('sharedStrings');
  const sharedXml = sharedPath ? await read(sharedPath) : null;
  const strings = sharedXml ? [...elements(sharedXml, 'si')].map((si) => si.body) : [];
  const decoded = new Map<number, string>();
  const shared = (index: number) => {
    if (index >= strings.length) return String(index);
    if (!decoded.has(index)) decoded.set(index, textOf(strings[index]!));
    return decoded.get(index)!;
  };
  const stylesPath = partOf('styles');
  const workbookPr = [...elements(workbook, 'workbookPr')][0];
  const date1904Attr = workbookPr ? attributes(workbookPr.attrs).date1904 : undefined;
  const context: SheetContext = {
    shared,
    dates: dateStyles(stylesPath ? await read(stylesPath) : null),
    date1904: date1904Attr === '1' || date1904Attr === 'true',
  };

  const tables: SheetTable[] = [];
  for (const sheet of elements(workbook, 'sheet')) {
    if (tables.length >= XLSX_LIMITS.sheets) break;
    const a = attributes(sheet.attrs);
    const rel = a['r:id'] ? rels.get(a['r:id']) : a.id ? rels.get(a.id) : undefined;
    if (!rel || !rel.type.endsWith('/worksheet')) continue;
    const xml = await read(rel.path);
    if (xml === null) continue;
    tables.push(readSheet(a.name ?? '', xml, context));
  }
  return tables;
}

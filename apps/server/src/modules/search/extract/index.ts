import { extensionOf } from '@bogwan/contracts';
import { hwpText } from './hwp.js';
import { DOCUMENT_BYTES_CAP, TEXT_BYTES_CAP, capText, tidy } from './limits.js';
import { type OfficeFormat, officeText } from './office.js';
import { pdfText } from './pdf.js';
import { decodeText, stripMarkup } from './text.js';

/** Where the bytes come from: the first `maxBytes` of the file (a range read of its blob). */
export interface ExtractSource {
  size: number;
  read(maxBytes: number): Promise<Buffer>;
}

export type Extracted =
  | { status: 'indexed'; text: string; truncated: boolean }
  /** Nothing to extract: a type without text, or a document over the size cap. */
  | { status: 'skipped' };

type Reader = (source: ExtractSource) => Promise<string>;

const PLAIN = [
  'txt',
  'md',
  'csv',
  'tsv',
  'log',
  'rtf',
  'json',
  'yml',
  'yaml',
  'ini',
  'conf',
  'sql',
  'js',
  'mjs',
  'cjs',
  'ts',
  'tsx',
  'jsx',
  'css',
  'scss',
  'py',
  'java',
  'c',
  'h',
  'cpp',
  'hpp',
  'cs',
  'go',
  'rs',
  'rb',
  'php',
  'sh',
  'kt',
  'swift',
  'vue',
  'url',
];
const MARKUP = ['html', 'htm', 'xml', 'svg'];
const OFFICE: Record<string, OfficeFormat> = { docx: 'docx', pptx: 'pptx', xlsx: 'xlsx', hwpx: 'hwpx', odt: 'odf', ods: 'odf', odp: 'odf' };

const plain: Reader = async (source) => decodeText(await source.read(TEXT_BYTES_CAP));
const markup: Reader = async (source) => stripMarkup(decodeText(await source.read(TEXT_BYTES_CAP)));
const whole =
  (parse: (bytes: Buffer) => Promise<string> | string): Reader =>
  async (source) =>
    parse(await source.read(source.size));

/** Whether a document must be read whole (and so is subject to the document size cap). */
const WHOLE = new Set(['pdf', 'hwp', ...Object.keys(OFFICE)]);

function readerFor(extension: string): Reader | null {
  if (PLAIN.includes(extension)) return plain;
  if (MARKUP.includes(extension)) return markup;
  if (extension === 'pdf') return whole(pdfText);
  if (extension === 'hwp') return whole(hwpText);
  const office = OFFICE[extension];
  if (office) return whole((bytes) => officeText(bytes, office));
  return null;
}

/** True when files of this name have text worth extracting. */
export function isExtractable(name: string): boolean {
  return readerFor(extensionOf(name)) !== null;
}

/**
 * The searchable text of a file, chosen by its extension and capped: text files by their
 * first TEXT_BYTES_CAP bytes, documents up to DOCUMENT_BYTES_CAP (larger ones are
 * skipped); at most TEXT_CHARS_CAP characters are kept. A damaged document rejects.
 */
export async function extractText(name: string, source: ExtractSource): Promise<Extracted> {
  const extension = extensionOf(name);
  const reader = readerFor(extension);
  if (!reader) return { status: 'skipped' };
  if (WHOLE.has(extension) && source.size > DOCUMENT_BYTES_CAP) return { status: 'skipped' };
  const raw = await reader(source);
  const cut = !WHOLE.has(extension) && source.size > TEXT_BYTES_CAP;
  const { text, truncated } = capText(tidy(raw));
  return { status: 'indexed', text, truncated: truncated || cut };
}

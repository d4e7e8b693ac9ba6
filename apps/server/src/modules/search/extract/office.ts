import yauzl from 'yauzl';
import { XML_BYTES_CAP } from './limits.js';
import { decodeEntities } from './text.js';

/** Office formats that are zips of XML parts: which parts hold the text, and how to read them. */
export type OfficeFormat = 'docx' | 'pptx' | 'xlsx' | 'hwpx' | 'odf';

const PARTS: Record<OfficeFormat, RegExp> = {
  docx: /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/,
  pptx: /^ppt\/(slides\/slide|notesSlides\/notesSlide)\d+\.xml$/,
  xlsx: /^xl\/(sharedStrings|worksheets\/sheet\d+)\.xml$/,
  hwpx: /^Contents\/section\d+\.xml$/,
  odf: /^content\.xml$/,
};

/** Closing tags that end a paragraph, a cell or a row in these formats. */
const BREAKS = /<\/(w:p|a:p|hp:p|text:p|text:h|si|row|table:table-row)>/g;

/** The text of a DOCX, PPTX, XLSX, HWPX or OpenDocument file. */
export async function officeText(bytes: Buffer, format: OfficeFormat): Promise<string> {
  const parts = await readParts(bytes, PARTS[format]);
  const names = [...parts.keys()].sort(naturalOrder);
  return names.map((name) => xmlText(parts.get(name)!, format === 'xlsx' && name.includes('worksheets/'))).join('\n');
}

/** Text of one XML part; worksheet cells that point into the shared strings are left out (read from there). */
function xmlText(xml: string, worksheet: boolean): string {
  if (worksheet) {
    const cells: string[] = [];
    for (const match of xml.matchAll(/<c\b([^>]*)>([\s\S]*?)<\/c>/g)) {
      if (/\bt="s"/.test(match[1]!)) continue;
      const value = /<(?:v|t)\b[^>]*>([\s\S]*?)<\/(?:v|t)>/.exec(match[2]!)?.[1];
      if (value) cells.push(decodeEntities(value));
    }
    return cells.join('\n');
  }
  return decodeEntities(
    xml
      .replace(BREAKS, '\n')
      .replace(/<(w:tab|hp:tab|text:tab)\b[^>]*\/>/g, ' ')
      .replace(/<[^>]*>/g, ''),
  );
}

/** The decompressed parts whose names match, at most XML_BYTES_CAP bytes in all. */
function readParts(bytes: Buffer, wanted: RegExp): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a zip'));
      const parts = new Map<string, string>();
      let budget = XML_BYTES_CAP;
      const finish = () => {
        zip.close();
        resolve(parts);
      };
      zip.on('error', reject);
      zip.on('end', finish);
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!wanted.test(entry.fileName) || budget <= 0) return zip.readEntry();
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('unreadable part'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => {
            if (budget <= 0) return;
            const part = chunk.subarray(0, budget);
            budget -= part.length;
            chunks.push(part);
            // The cap is reached: what was read so far is kept, the rest is not inflated.
            if (budget <= 0) stream.destroy();
          });
          const done = () => {
            parts.set(entry.fileName, new TextDecoder('utf-8').decode(Buffer.concat(chunks)));
            zip.readEntry();
          };
          stream.on('end', done);
          stream.on('close', () => {
            if (!parts.has(entry.fileName)) done();
          });
          stream.on('error', (streamFailure) => (budget <= 0 ? undefined : reject(streamFailure)));
        });
      });
      zip.readEntry();
    });
  });
}

function naturalOrder(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';

/** The sample HWP documents kept in the repository (test-fixtures/hwp, Apache-2.0; read-only). */
export const SAMPLES_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../test-fixtures/hwp');
export const sample = (name: string) => fs.readFileSync(path.join(SAMPLES_DIR, name));

/** A one-page PDF showing the given lines in Helvetica (ASCII text). */
export function makePdf(lines: string[]): Buffer {
  const text = lines.map((line, i) => `${i ? '0 -16 Td ' : ''}(${line.replace(/[()\\]/g, (c) => `\\${c}`)}) Tj`).join(' ');
  const content = `BT /F1 12 Tf 72 720 Td ${text} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(out.length);
    out += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** A zip of the given parts (office documents are zips of XML). */
export function makeZip(parts: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(parts)) zip.addBuffer(Buffer.from(text, 'utf8'), name);
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

const xmlEscape = (s: string) => s.replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);

export const makeDocx = (paragraphs: string[]) =>
  makeZip({
    '[Content_Types].xml': '<?xml version="1.0"?><Types/>',
    'word/document.xml': `<?xml version="1.0" encoding="UTF-8"?><w:document><w:body>${paragraphs
      .map((p) => `<w:p><w:r><w:t>${xmlEscape(p)}</w:t></w:r></w:p>`)
      .join('')}</w:body></w:document>`,
  });

export const makeXlsx = (strings: string[], numbers: number[]) =>
  makeZip({
    'xl/sharedStrings.xml': `<?xml version="1.0"?><sst>${strings.map((s) => `<si><t>${xmlEscape(s)}</t></si>`).join('')}</sst>`,
    'xl/worksheets/sheet1.xml': `<?xml version="1.0"?><worksheet><sheetData><row>${strings
      .map((_, i) => `<c r="A${i + 1}" t="s"><v>${i}</v></c>`)
      .join('')}${numbers.map((n, i) => `<c r="B${i + 1}"><v>${n}</v></c>`).join('')}</row></sheetData></worksheet>`,
  });

export const makeHwpx = (paragraphs: string[]) =>
  makeZip({
    mimetype: 'application/hwp+zip',
    'Contents/section0.xml': `<?xml version="1.0"?><hs:sec>${paragraphs
      .map((p) => `<hp:p><hp:run><hp:t>${xmlEscape(p)}</hp:t></hp:run></hp:p>`)
      .join('')}</hs:sec>`,
  });

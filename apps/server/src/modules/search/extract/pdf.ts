import { TEXT_CHARS_CAP } from './limits.js';

/** The text of a PDF, page by page, stopping once the character cap is reached. */
export async function pdfText(bytes: Buffer): Promise<string> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({
    data: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  const doc = await task.promise;
  try {
    const parts: string[] = [];
    let length = 0;
    for (let n = 1; n <= doc.numPages && length < TEXT_CHARS_CAP; n += 1) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const text = content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : '') : '')).join('');
      parts.push(text);
      length += text.length;
      page.cleanup();
    }
    return parts.join('\n');
  } finally {
    await task.destroy();
  }
}

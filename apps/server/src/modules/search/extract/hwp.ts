import { createRequire } from 'node:module';

interface HwpChar {
  type: number;
  value: number | string;
}
interface HwpParagraph {
  content: HwpChar[];
  controls: unknown[];
  textSize: number;
}

const require = createRequire(import.meta.url);

/**
 * The text of an HWP 5 document (OLE compound file): every paragraph of every section,
 * including those inside tables, text boxes, headers and footnotes.
 */
export function hwpText(bytes: Buffer): string {
  const { parse } = require('hwp.js') as { parse: (input: Buffer, options: { type: 'buffer' }) => { sections: { content: HwpParagraph[] }[] } };
  const doc = parse(bytes, { type: 'buffer' });
  const lines: string[] = [];
  const seen = new Set<object>();
  const visit = (value: unknown): void => {
    if (!value || typeof value !== 'object' || seen.has(value)) return;
    seen.add(value);
    if (isParagraph(value)) {
      // Type 0 entries are characters; strings are text, numbers are control codes.
      const line = value.content.map((c) => (c.type === 0 && typeof c.value === 'string' ? c.value : '')).join('');
      if (line.trim()) lines.push(line);
      for (const control of value.controls) visit(control);
      return;
    }
    for (const item of Array.isArray(value) ? value : Object.values(value)) visit(item);
  };
  for (const section of doc.sections) visit(section.content);
  return lines.join('\n');
}

function isParagraph(value: object): value is HwpParagraph {
  return Array.isArray((value as HwpParagraph).content) && Array.isArray((value as HwpParagraph).controls) && 'textSize' in value;
}

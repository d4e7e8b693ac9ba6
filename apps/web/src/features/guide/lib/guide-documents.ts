import type { Locale } from '@bogwan/contracts';

/** The two documents: the user guide (how to work with the product) and the manual (every function, administration included). */
export type GuideDocument = 'guide' | 'manual';

/** Where the web build serves a document's PDF in a locale, and the name it is saved under. */
export function guidePdf(document: GuideDocument, locale: Locale): { url: string; fileName: string } {
  return { url: `/guide/${document}-${locale}.pdf`, fileName: `bogwan-${document}-${locale}.pdf` };
}

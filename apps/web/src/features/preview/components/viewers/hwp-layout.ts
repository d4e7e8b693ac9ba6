/** Gap between the scroll area's edge and the pages, in CSS pixels. */
const EDGE = 12;

/**
 * The zoom that fits a page of `pageWidth` px into a scroll area `areaWidth` px wide: never
 * above 1 (a wide screen shows the page at its printed size), never below 0.2.
 */
export function fitZoom(areaWidth: number, pageWidth: number): number {
  if (pageWidth <= 0 || areaWidth <= 0) return 1;
  return Math.max(0.2, Math.min(1, (areaWidth - 2 * EDGE) / pageWidth));
}

/** Where one page sits in the scroll area, in scroll coordinates. */
export interface PageBand {
  top: number;
  bottom: number;
}

/**
 * The page (1-based) a reader is on: the one under the middle of the visible area; at the
 * very end of the scroll, the last page (a short last page never reaches the middle).
 */
export function currentPage(bands: PageBand[], scrollTop: number, viewHeight: number, scrollHeight: number): number {
  if (bands.length === 0) return 0;
  if (scrollTop + viewHeight >= scrollHeight - 2) return bands.length;
  const middle = scrollTop + viewHeight / 2;
  let page = 1;
  bands.forEach((band, index) => {
    if (band.top <= middle) page = index + 1;
  });
  return page;
}

/**
 * hwp.js writes the document's own font names (함초롬바탕, HY헤드라인M, …) on every run of
 * text; a machine without them fell back to a font without Hangul and drew empty boxes.
 * The document's fonts stay first, the app's bundled fonts follow.
 */
export function withFallbackFonts(documentFamilies: string, appFamilies: string): string {
  const own = documentFamilies
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && !['sans', 'sans-serf', 'serif', 'sans-serif', 'cursive', 'monospace'].includes(name))
    .map((name) => (name.startsWith('"') ? name : `"${name.replace(/"/g, '')}"`));
  return [...own, appFamilies].join(',');
}

export { EDGE as HWP_PAGE_EDGE };

import Box from '@mui/material/Box';
import { useTheme } from '@mui/material/styles';
import { Viewer } from 'hwp.js';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { currentPage, fitZoom, HWP_PAGE_EDGE, withFallbackFonts } from './hwp-layout';
import { Spinner } from '../../../../components/spinner';
import { usePreviewBlob } from './use-preview-blob';
import type { ViewerProps } from './viewer-props';

interface Counter {
  current: number;
  total: number;
}

/**
 * Makes hwp.js's drawing fit the app: its own header (a Korean-only counter that followed
 * whichever page last crossed a line, a print button) goes, the pages are zoomed to the
 * width of the window, and every run of text falls back to the bundled fonts.
 * Returns a function that recomputes the page counter.
 */
function adapt(container: HTMLElement, appFonts: string, onCounter: (counter: Counter) => void): () => void {
  const viewer = container.firstElementChild as HTMLElement | null;
  const content = viewer?.lastElementChild as HTMLElement | null;
  if (!viewer || !content) return () => undefined;
  for (const child of Array.from(viewer.children)) if (child !== content) child.remove();
  content.style.padding = `${HWP_PAGE_EDGE}px`;
  content.style.fontFamily = appFonts;
  content.setAttribute('data-testid', 'hwp-scroll');
  for (const element of Array.from(content.querySelectorAll<HTMLElement>('[style*="font-family"]'))) {
    element.style.fontFamily = withFallbackFonts(element.style.fontFamily, appFonts);
  }
  const pages = Array.from(content.querySelectorAll<HTMLElement>(':scope > [data-page-number]'));
  const widths = pages.map((page) => page.offsetWidth);

  const count = () => {
    const origin = content.getBoundingClientRect().top - content.scrollTop;
    const bands = pages.map((page) => {
      const rect = page.getBoundingClientRect();
      return { top: rect.top - origin, bottom: rect.bottom - origin };
    });
    onCounter({ current: currentPage(bands, content.scrollTop, content.clientHeight, content.scrollHeight), total: pages.length });
  };
  const fit = () => {
    pages.forEach((page, index) => page.style.setProperty('zoom', String(fitZoom(content.clientWidth, widths[index] ?? 0))));
    count();
  };
  fit();
  const resize = new ResizeObserver(fit);
  resize.observe(content);
  content.addEventListener('scroll', count, { passive: true });
  return () => {
    resize.disconnect();
    content.removeEventListener('scroll', count);
  };
}

/** HWP 5 documents drawn by hwp.js (text, tables and pictures, page by page), fitted to the window. */
export default function HwpViewer({ path, onError }: ViewerProps) {
  const { t } = useTranslation();
  const appFonts = useTheme().typography.fontFamily ?? 'sans-serif';
  const { blob, error } = usePreviewBlob(path);
  const host = useRef<HTMLDivElement>(null);
  const [counter, setCounter] = useState<Counter | null>(null);

  useEffect(() => {
    if (error) onError(error);
  }, [error, onError]);

  useEffect(() => {
    const container = host.current;
    if (!blob || !container) return;
    let live = true;
    let viewer: Viewer | null = null;
    let release = () => undefined as void;
    void blob.arrayBuffer().then((buffer) => {
      if (!live) return;
      try {
        container.replaceChildren();
        viewer = new Viewer(container, new Uint8Array(buffer), { type: 'array' });
        release = adapt(container, appFonts, setCounter);
      } catch (cause) {
        onError(cause);
      }
    });
    return () => {
      live = false;
      release();
      try {
        viewer?.distory();
      } catch {
        // already gone
      }
      container.replaceChildren();
      setCounter(null);
    };
  }, [blob, onError, appFonts]);

  return (
    <Box sx={{ height: '100%', position: 'relative' }}>
      {!counter && <Spinner />}
      {counter && counter.total > 0 && (
        <Box
          data-testid="hwp-page-counter"
          sx={{
            position: 'absolute',
            zIndex: 1,
            top: 8,
            right: 16,
            px: 1.5,
            py: 0.5,
            borderRadius: 4,
            bgcolor: 'rgba(0, 0, 0, 0.7)',
            color: 'grey.100',
            typography: 'body2',
            pointerEvents: 'none',
          }}
        >
          {t('preview_page_counter', { current: counter.current, total: counter.total })}
        </Box>
      )}
      <Box
        ref={host}
        data-testid="hwp-preview"
        // hwp.js draws black text on white pages, whatever the app's palette.
        sx={{ height: '100%', color: '#000' }}
      />
    </Box>
  );
}

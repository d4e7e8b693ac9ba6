import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from './spinner';

// The worker is its own asset; this chunk loads only when a PDF is shown.
GlobalWorkerOptions.workerSrc = workerUrl;

/** Pages drawn at most; a longer document says so and offers the download. */
const MAX_PAGES = 100;

export interface PdfDocumentProps {
  /** The PDF's bytes. */
  blob: Blob;
  /** Called when the bytes are not a PDF pdf.js can draw. */
  onError: (error: unknown) => void;
}

/** A PDF drawn through pdf.js: every page to a canvas, one after the other (file preview, guide). */
export default function PdfDocument({ blob, onError }: PdfDocumentProps) {
  const { t } = useTranslation();
  const pages = useRef<HTMLDivElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);

  useEffect(() => {
    let live = true;
    let loaded: PDFDocumentProxy | null = null;
    void (async () => {
      try {
        const data = new Uint8Array(await blob.arrayBuffer());
        loaded = await getDocument({ data, isEvalSupported: false, enableXfa: false }).promise;
        if (!live) return void loaded.destroy();
        setDoc(loaded);
      } catch (cause) {
        if (live) onError(cause);
      }
    })();
    return () => {
      live = false;
      void loaded?.destroy();
    };
  }, [blob, onError]);

  useEffect(() => {
    const host = pages.current;
    if (!doc || !host) return;
    let live = true;
    host.replaceChildren();
    void (async () => {
      const width = Math.min(host.clientWidth || 900, 1000);
      for (let number = 1; number <= Math.min(doc.numPages, MAX_PAGES) && live; number += 1) {
        const page = await doc.getPage(number);
        const base = page.getViewport({ scale: 1 });
        const scale = width / base.width;
        const viewport = page.getViewport({ scale: scale * (window.devicePixelRatio || 1) });
        const canvas = document.createElement('canvas');
        canvas.width = Math.floor(viewport.width);
        canvas.height = Math.floor(viewport.height);
        canvas.style.width = `${Math.floor(base.width * scale)}px`;
        canvas.style.maxWidth = '100%';
        canvas.style.background = '#fff';
        canvas.style.boxShadow = '0 1px 4px rgba(0,0,0,.4)';
        canvas.setAttribute('role', 'img');
        canvas.setAttribute('aria-label', t('preview_pdf_page', { n: number }));
        host.append(canvas);
        await page.render({ canvas, canvasContext: canvas.getContext('2d') as CanvasRenderingContext2D, viewport }).promise;
      }
    })().catch((cause: unknown) => {
      if (live) onError(cause);
    });
    return () => {
      live = false;
    };
  }, [doc, onError, t]);

  if (!doc) return <Spinner />;
  return (
    <Box sx={{ height: '100%', overflow: 'auto', py: 2 }}>
      <Box
        ref={pages}
        data-testid="pdf-preview"
        data-pages={doc.numPages}
        sx={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 2, px: 2, maxWidth: 1040, mx: 'auto' }}
      />
      {doc.numPages > MAX_PAGES && (
        <Typography sx={{ textAlign: 'center', color: 'grey.300', mt: 2 }}>{t('preview_pdf_more_pages', { n: MAX_PAGES })}</Typography>
      )}
    </Box>
  );
}

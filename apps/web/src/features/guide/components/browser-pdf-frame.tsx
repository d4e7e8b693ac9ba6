import Box from '@mui/material/Box';
import { useEffect, useState } from 'react';

/** Whether the browser shows a PDF itself in a frame (desktop Chromium, Firefox, Safari; not phones). */
export function browserShowsPdf(): boolean {
  return typeof navigator !== 'undefined' && navigator.pdfViewerEnabled === true;
}

/**
 * A PDF in the browser's own viewer (zoom, page thumbnails, search, print), framed from its
 * bytes: a `blob:` address, since the server forbids framing its own answers.
 */
export function BrowserPdfFrame({ blob, title }: { blob: Blob; title: string }) {
  const [url, setUrl] = useState<string | null>(null);

  useEffect(() => {
    // The viewer opens only a frame whose document says it is a PDF.
    const next = URL.createObjectURL(blob.type === 'application/pdf' ? blob : new Blob([blob], { type: 'application/pdf' }));
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [blob]);

  if (!url) return null;
  return (
    <Box
      component="iframe"
      title={title}
      src={url}
      data-testid="pdf-preview"
      data-viewer="browser"
      sx={{ display: 'block', width: '100%', height: 'calc(100vh - 220px)', minHeight: 480, border: 0, borderRadius: 2 }}
    />
  );
}

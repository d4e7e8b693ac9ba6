import Box from '@mui/material/Box';
import { Viewer } from 'hwp.js';
import { useEffect, useRef, useState } from 'react';
import { Spinner } from './spinner';
import { usePreviewBlob } from './use-preview-blob';
import type { ViewerProps } from './viewer-props';

/** HWP 5 documents drawn by hwp.js (text, tables and pictures, page by page). */
export default function HwpViewer({ path, onError }: ViewerProps) {
  const { blob, error } = usePreviewBlob(path);
  const host = useRef<HTMLDivElement>(null);
  const [drawn, setDrawn] = useState(false);

  useEffect(() => {
    if (error) onError(error);
  }, [error, onError]);

  useEffect(() => {
    const container = host.current;
    if (!blob || !container) return;
    let live = true;
    let viewer: Viewer | null = null;
    void blob.arrayBuffer().then((buffer) => {
      if (!live) return;
      try {
        container.replaceChildren();
        viewer = new Viewer(container, new Uint8Array(buffer), { type: 'array' });
        setDrawn(true);
      } catch (cause) {
        onError(cause);
      }
    });
    return () => {
      live = false;
      try {
        viewer?.distory();
      } catch {
        // already gone
      }
      container.replaceChildren();
    };
  }, [blob, onError]);

  return (
    <Box sx={{ height: '100%', overflow: 'auto', position: 'relative' }}>
      {!drawn && <Spinner />}
      <Box
        ref={host}
        data-testid="hwp-preview"
        sx={{
          // hwp.js draws white pages with their own header; keep them centred on the dark backdrop.
          color: '#000',
          '& .hwpjs-header': { position: 'sticky', top: 0, zIndex: 1 },
        }}
      />
    </Box>
  );
}

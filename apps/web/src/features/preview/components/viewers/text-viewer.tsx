import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TEXT_PREVIEW_BYTES } from '../../api/fetch-preview';
import { Spinner } from '../../../../components/spinner';
import { usePreviewBlob } from './use-preview-blob';
import type { ViewerProps } from './viewer-props';

/** Decodes UTF-8, or EUC-KR when the bytes are not valid UTF-8 (older Korean text files). */
function decode(bytes: ArrayBuffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    try {
      return new TextDecoder('euc-kr').decode(bytes);
    } catch {
      return new TextDecoder('utf-8').decode(bytes);
    }
  }
}

/**
 * The fallback: the first megabyte as plain text. HTML and SVG sources land here too and
 * are shown as text, never rendered.
 */
export function TextViewer({ path, size, onError }: ViewerProps) {
  const { t } = useTranslation();
  const { blob, error } = usePreviewBlob(path, TEXT_PREVIEW_BYTES);
  const [text, setText] = useState<string | null>(null);
  useEffect(() => {
    if (error) onError(error);
  }, [error, onError]);
  useEffect(() => {
    if (!blob) return setText(null);
    let live = true;
    void blob.arrayBuffer().then((buffer) => {
      // A multi-byte character cut at the end of the range decodes as one replacement sign.
      if (live) setText(decode(buffer));
    });
    return () => {
      live = false;
    };
  }, [blob]);
  if (text === null) return <Spinner />;
  return (
    <Box sx={{ height: '100%', overflow: 'auto', p: { xs: 1, sm: 3 } }}>
      {size > TEXT_PREVIEW_BYTES && (
        <Alert severity="info" sx={{ mb: 1, maxWidth: 1080, mx: 'auto' }}>
          {t('preview_text_truncated')}
        </Alert>
      )}
      <Box
        component="pre"
        data-testid="text-preview"
        sx={{
          m: 0,
          mx: 'auto',
          maxWidth: 1080,
          p: 2,
          borderRadius: 1,
          bgcolor: 'background.paper',
          color: 'text.primary',
          fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Noto Sans Mono CJK KR", monospace',
          fontSize: 13,
          whiteSpace: 'pre-wrap',
          wordBreak: 'break-word',
        }}
      >
        {text}
      </Box>
    </Box>
  );
}

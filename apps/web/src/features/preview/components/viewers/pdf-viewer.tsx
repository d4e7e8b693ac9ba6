import { useEffect } from 'react';
import PdfDocument from '../../../../components/pdf-document';
import { Spinner } from '../../../../components/spinner';
import { usePreviewBlob } from './use-preview-blob';
import type { ViewerProps } from './viewer-props';

/** PDF preview of a stored file: its bytes fetched, then drawn page by page. */
export default function PdfViewer({ path, onError }: ViewerProps) {
  const { blob, error } = usePreviewBlob(path);

  useEffect(() => {
    if (error) onError(error);
  }, [error, onError]);

  if (!blob) return <Spinner />;
  return <PdfDocument blob={blob} onError={onError} />;
}

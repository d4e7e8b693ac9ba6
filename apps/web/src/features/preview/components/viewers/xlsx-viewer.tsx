import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../../components/spinner';
import { usePreviewBlob } from './use-preview-blob';
import type { ViewerProps } from './viewer-props';
import { XLSX_LIMITS, type SheetTable } from './xlsx-read';
import type { XlsxWorkerAnswer } from './xlsx.worker';

/** The workbook read in a worker (xlsx-read.ts): no workbook library, and the page stays responsive. */
function readInWorker(buffer: ArrayBuffer): { sheets: Promise<SheetTable[]>; stop: () => void } {
  const worker = new Worker(new URL('./xlsx.worker.ts', import.meta.url), { type: 'module' });
  const sheets = new Promise<SheetTable[]>((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<XlsxWorkerAnswer>) => {
      if ('sheets' in event.data) resolve(event.data.sheets);
      else reject(new Error(event.data.error));
      worker.terminate();
    };
    worker.onerror = (event) => {
      reject(new Error(event.message || 'the spreadsheet reader failed'));
      worker.terminate();
    };
  });
  worker.postMessage(buffer, [buffer]);
  return { sheets, stop: () => worker.terminate() };
}

/** Column letters as a spreadsheet shows them: 1 → A, 27 → AA. */
function columnName(index: number): string {
  let name = '';
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** The first sheets of an .xlsx workbook as tables, capped in sheets, rows and columns (XLSX_LIMITS). */
export default function XlsxViewer({ path, onError }: ViewerProps) {
  const { t } = useTranslation();
  const { blob, error } = usePreviewBlob(path);
  const [sheets, setSheets] = useState<SheetTable[] | null>(null);
  const [current, setCurrent] = useState(0);

  useEffect(() => {
    if (error) onError(error);
  }, [error, onError]);

  useEffect(() => {
    if (!blob) return;
    let live = true;
    let stop = () => {};
    void (async () => {
      try {
        const reading = readInWorker(await blob.arrayBuffer());
        stop = reading.stop;
        if (!live) return stop();
        const read = await reading.sheets;
        if (live) setSheets(read);
      } catch (cause) {
        if (live) onError(cause);
      }
    })();
    return () => {
      live = false;
      stop();
    };
  }, [blob, onError]);

  if (!sheets) return <Spinner />;
  const sheet = sheets[current];
  const columns = Math.max(0, ...(sheet?.rows.map((row) => row.length) ?? [0]));
  return (
    <Box sx={{ height: '100%', display: 'flex', flexDirection: 'column', bgcolor: 'background.paper', color: 'text.primary' }}>
      <Tabs
        value={current}
        onChange={(_e, value: number) => setCurrent(value)}
        variant="scrollable"
        sx={{ borderBottom: 1, borderColor: 'divider', flexShrink: 0 }}
      >
        {sheets.map((s, index) => (
          <Tab key={s.name} value={index} label={s.name} />
        ))}
      </Tabs>
      <Box sx={{ flexGrow: 1, overflow: 'auto' }}>
        {sheet && (
          <Box
            component="table"
            data-testid="xlsx-preview"
            sx={{
              borderCollapse: 'collapse',
              fontSize: 13,
              '& th, & td': {
                border: 1,
                borderColor: 'divider',
                px: 1,
                py: 0.5,
                whiteSpace: 'nowrap',
                maxWidth: 320,
                overflow: 'hidden',
                textOverflow: 'ellipsis',
              },
              '& th': { bgcolor: 'action.hover', fontWeight: 500, position: 'sticky', top: 0 },
              '& td:first-of-type': { bgcolor: 'action.hover', color: 'text.secondary', textAlign: 'right' },
            }}
          >
            <thead>
              <tr>
                <th />
                {Array.from({ length: columns }, (_, c) => (
                  <th key={c}>{columnName(c + 1)}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {sheet.rows.map((row, r) => (
                <tr key={r}>
                  <td>{r + 1}</td>
                  {row.map((cell, c) => (
                    <td key={c}>{cell}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </Box>
        )}
        {sheet?.truncated && (
          <Typography variant="body2" sx={{ p: 1.5, color: 'text.secondary' }}>
            {t('preview_sheet_truncated', { rows: XLSX_LIMITS.rows, columns: XLSX_LIMITS.columns })}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

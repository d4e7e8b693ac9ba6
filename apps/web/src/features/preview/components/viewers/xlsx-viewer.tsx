import Box from '@mui/material/Box';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import ExcelJS from 'exceljs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Spinner } from '../../../../components/spinner';
import { usePreviewBlob } from './use-preview-blob';
import type { ViewerProps } from './viewer-props';

/** Sheets, rows and columns shown at most. */
const MAX_SHEETS = 5;
const MAX_ROWS = 500;
const MAX_COLUMNS = 50;

interface SheetTable {
  name: string;
  rows: string[][];
  truncated: boolean;
}

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value) return cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return String(value.error);
    return '';
  }
  return String(value);
}

function toTable(sheet: ExcelJS.Worksheet): SheetTable {
  const rowCount = Math.min(sheet.rowCount, MAX_ROWS);
  const columnCount = Math.min(sheet.columnCount, MAX_COLUMNS);
  const rows: string[][] = [];
  for (let r = 1; r <= rowCount; r += 1) {
    const row = sheet.getRow(r);
    const cells: string[] = [];
    for (let c = 1; c <= columnCount; c += 1) cells.push(cellText(row.getCell(c).value));
    rows.push(cells);
  }
  return { name: sheet.name, rows, truncated: sheet.rowCount > MAX_ROWS || sheet.columnCount > MAX_COLUMNS };
}

/** Column letters as a spreadsheet shows them: 1 → A, 27 → AA. */
function columnName(index: number): string {
  let name = '';
  for (let n = index; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/** The first sheets of an .xlsx workbook as tables (exceljs), capped in rows and columns. */
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
    void (async () => {
      try {
        const workbook = new ExcelJS.Workbook();
        await workbook.xlsx.load(await blob.arrayBuffer());
        if (live) setSheets(workbook.worksheets.slice(0, MAX_SHEETS).map(toTable));
      } catch (cause) {
        if (live) onError(cause);
      }
    })();
    return () => {
      live = false;
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
            {t('preview_sheet_truncated', { rows: MAX_ROWS, columns: MAX_COLUMNS })}
          </Typography>
        )}
      </Box>
    </Box>
  );
}

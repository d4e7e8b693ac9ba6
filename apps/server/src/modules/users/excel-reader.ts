import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { badRequest } from '../../errors.js';

/** A sheet as rows of cell texts; a cell holding a formula is marked so the row can be refused. */
export interface SheetRows {
  rows: string[][];
  formulaRows: number[];
}

const PARSE_TIMEOUT_MS = 15_000;
const WORKER_HEAP_MB = 256;
const ZIP_MAGIC = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const CFB_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

// Runs inside the worker: the spreadsheet library never touches the server's own heap, so a
// hostile file (the library has known advisories on crafted input) can at most kill the worker.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const XLSX = require(workerData.modulePath);
const book = XLSX.read(workerData.bytes, { type: 'buffer', cellFormula: true, cellHTML: false, cellStyles: false, sheetRows: workerData.maxRows + 2 });
const sheet = book.Sheets[book.SheetNames[0]];
const rows = [];
const formulaRows = [];
if (sheet && sheet['!ref']) {
  const range = XLSX.utils.decode_range(sheet['!ref']);
  const lastRow = Math.min(range.e.r, range.s.r + workerData.maxRows + 1);
  const lastCol = Math.min(range.e.c, range.s.c + 9);
  for (let r = range.s.r; r <= lastRow; r++) {
    const row = [];
    for (let c = range.s.c; c <= lastCol; c++) {
      const cell = sheet[XLSX.utils.encode_cell({ r, c })];
      if (cell && cell.f) formulaRows.push(rows.length);
      row.push(cell && cell.v !== undefined && cell.v !== null ? String(cell.v).slice(0, 300) : '');
    }
    rows.push(row);
  }
  if (range.e.r - range.s.r > workerData.maxRows + 1) rows.push(['__too_many_rows__']);
}
parentPort.postMessage({ rows, formulaRows });
`;

/**
 * Reads the first sheet of an .xls or .xlsx file. The file must be what its bytes say (a zip
 * for .xlsx, a compound file for .xls): a text file renamed .xlsx is refused, not guessed at.
 * At most `maxRows` data rows; more is 400 `excel_too_many_rows`.
 */
export async function readSheet(bytes: Buffer, fileName: string, maxRows: number): Promise<SheetRows> {
  const lower = fileName.toLowerCase();
  const isXlsx = lower.endsWith('.xlsx') && bytes.subarray(0, 4).equals(ZIP_MAGIC);
  const isXls = lower.endsWith('.xls') && bytes.subarray(0, 8).equals(CFB_MAGIC);
  if (!isXlsx && !isXls) throw badRequest('excel_invalid_file');
  const modulePath = createRequire(import.meta.url).resolve('xlsx');
  const result = await new Promise<SheetRows>((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { bytes, modulePath, maxRows },
      resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(badRequest('excel_invalid_file'));
    }, PARSE_TIMEOUT_MS);
    worker.once('message', (message: SheetRows) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(message);
    });
    worker.once('error', () => {
      clearTimeout(timer);
      reject(badRequest('excel_invalid_file'));
    });
    worker.once('exit', (code) => {
      clearTimeout(timer);
      if (code !== 0) reject(badRequest('excel_invalid_file'));
    });
  });
  if (result.rows.at(-1)?.[0] === '__too_many_rows__') throw badRequest('excel_too_many_rows');
  return result;
}

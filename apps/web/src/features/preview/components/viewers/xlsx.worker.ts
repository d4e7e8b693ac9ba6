// Reads an .xlsx workbook off the main thread: receives its bytes, answers its first sheets as tables.
import { readXlsx, type SheetTable } from './xlsx-read';

export type XlsxWorkerAnswer = { sheets: SheetTable[] } | { error: string };

const scope = self as unknown as { onmessage: ((event: MessageEvent<ArrayBuffer>) => void) | null; postMessage: (answer: XlsxWorkerAnswer) => void };

scope.onmessage = (event) => {
  readXlsx(new Uint8Array(event.data)).then(
    (sheets) => scope.postMessage({ sheets }),
    (error: unknown) => scope.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  );
};

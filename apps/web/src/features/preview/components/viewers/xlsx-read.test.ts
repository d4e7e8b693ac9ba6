import { deflateRawSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { isDateFormat, readXlsx, XLSX_LIMITS, type SheetTable } from './xlsx-read';

// The viewer read workbooks with exceljs before; what it showed is the reference: every
// workbook here is read both ways and must give the same tables.
function referenceText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString().slice(0, 10);
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value && typeof value.text === 'string') return value.text;
    if ('result' in value) return referenceText(value.result as ExcelJS.CellValue);
    if ('error' in value) return String(value.error);
    return '';
  }
  return String(value);
}

async function reference(bytes: Buffer): Promise<SheetTable[]> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ExcelJS.Buffer);
  return workbook.worksheets.slice(0, XLSX_LIMITS.sheets).map((sheet) => {
    const rowCount = Math.min(sheet.rowCount, XLSX_LIMITS.rows);
    const columnCount = Math.min(sheet.columnCount, XLSX_LIMITS.columns);
    const rows: string[][] = [];
    for (let r = 1; r <= rowCount; r += 1) {
      const row = sheet.getRow(r);
      const cells: string[] = [];
      for (let c = 1; c <= columnCount; c += 1) cells.push(referenceText(row.getCell(c).value));
      rows.push(cells);
    }
    return { name: sheet.name, rows, truncated: sheet.rowCount > XLSX_LIMITS.rows || sheet.columnCount > XLSX_LIMITS.columns };
  });
}

async function bytesOf(workbook: ExcelJS.Workbook): Promise<Buffer> {
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

async function bothWays(bytes: Buffer): Promise<SheetTable[]> {
  const read = await readXlsx(new Uint8Array(bytes));
  expect(read).toEqual(await reference(bytes));
  return read;
}

describe('readXlsx', () => {
  it('reads strings, numbers, booleans, dates, formulas, errors, rich text and hyperlinks as the exceljs viewer did', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('매출');
    sheet.addRow(['지역', '금액', '비율', '확정', '날짜']);
    sheet.addRow(['서울', 1200, 0.25, true, new Date(Date.UTC(2026, 0, 31))]);
    sheet.addRow(['부산 & <해운대>', -800.5, 1e-7, false, new Date(Date.UTC(1999, 11, 31, 18))]);
    sheet.getCell('F1').value = { formula: 'B2+B3', result: 399.5 };
    sheet.getCell('F2').value = { formula: 'A2&"!"', result: '서울!' };
    sheet.getCell('F3').value = { formula: 'TODAY()', result: new Date(Date.UTC(2026, 5, 1)) };
    sheet.getCell('F4').value = { formula: '1/0', result: { error: '#DIV/0!' } };
    sheet.getCell('G1').value = { error: '#N/A' };
    sheet.getCell('G2').value = { richText: [{ text: '굵게 ', font: { bold: true } }, { text: '보통' }] };
    sheet.getCell('G3').value = { text: '보관 누리집', hyperlink: 'https://example.com' };
    sheet.getCell('H5').numFmt = '0.00'; // a style alone: no value
    sheet.getCell('B4').value = 3.5;
    sheet.getCell('B4').numFmt = 'yyyy"년" m"월" d"일"';
    sheet.getCell('C4').value = 45000;
    sheet.getCell('C4').numFmt = '#,##0 "원"';
    const [table] = await bothWays(await bytesOf(workbook));
    expect(table!.rows[1]).toEqual(['서울', '1200', '0.25', 'true', '2026-01-31', '서울!', '굵게 보통']);
    expect(table!.rows[2]![0]).toBe('부산 & <해운대>');
  });

  it('shows a merged range with its first cell’s text in every cell', async () => {
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('병합');
    sheet.getCell('A1').value = '제목';
    sheet.mergeCells('A1:C2');
    sheet.getCell('B4').value = 7;
    sheet.mergeCells('B4:B6');
    sheet.getCell('E8').value = null;
    sheet.mergeCells('E8:F9');
    const [table] = await bothWays(await bytesOf(workbook));
    expect(table!.rows[1]).toEqual(['제목', '제목', '제목', '', '', '']);
  });

  it('keeps the workbook’s sheet order, hidden sheets included, and stops at five', async () => {
    const workbook = new ExcelJS.Workbook();
    for (let n = 1; n <= 7; n += 1) {
      const sheet = workbook.addWorksheet(`시트${n}`, { state: n === 2 ? 'hidden' : 'visible' });
      sheet.addRow([`${n}번`]);
    }
    const read = await bothWays(await bytesOf(workbook));
    expect(read.map((t) => t.name)).toEqual(['시트1', '시트2', '시트3', '시트4', '시트5']);
  });

  it('caps rows and columns and says so, counting the whole sheet', async () => {
    const workbook = new ExcelJS.Workbook();
    const tall = workbook.addWorksheet('긴 시트');
    for (let r = 1; r <= XLSX_LIMITS.rows + 20; r += 1) tall.addRow([r, `줄 ${r}`]);
    const wide = workbook.addWorksheet('넓은 시트');
    wide.addRow(Array.from({ length: XLSX_LIMITS.columns + 5 }, (_, c) => c));
    const empty = workbook.addWorksheet('빈 시트');
    empty.getCell('C3').numFmt = '0%';
    const late = workbook.addWorksheet('늦은 값');
    late.getCell('A1').value = 1;
    late.getCell('BZ900').value = 'far';
    const read = await bothWays(await bytesOf(workbook));
    expect(read.map((t) => [t.rows.length, t.rows[0]?.length ?? 0, t.truncated])).toEqual([
      [XLSX_LIMITS.rows, 2, true],
      [1, XLSX_LIMITS.columns, true],
      [3, 0, false],
      [XLSX_LIMITS.rows, XLSX_LIMITS.columns, true],
    ]);
  });

  it('reads the 1904 date system', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.properties.date1904 = true;
    workbook.addWorksheet('1904').addRow([new Date(Date.UTC(2024, 1, 29))]);
    const [table] = await bothWays(await bytesOf(workbook));
    expect(table!.rows[0]).toEqual(['2024-02-29']);
  });

  it('reads inline strings, stored entries and cells without addresses that exceljs does not write', async () => {
    const sheetXml =
      '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>' +
      '<row r="1"><c r="A1" t="inlineStr"><is><t>인라인</t></is></c><c r="B1" t="inlineStr"><is><r><t>나눈 </t></r><r><t xml:space="preserve">글자</t></r></is></c></row>' +
      '<row><c t="b"><v>1</v></c><c><v>2.5</v></c><c t="e"><v>#REF!</v></c></row>' +
      '</sheetData></worksheet>';
    const files: Record<string, string> = {
      '[Content_Types].xml': '<Types/>',
      '_rels/.rels':
        '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
      'xl/workbook.xml':
        '<workbook xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets><sheet name="손으로 쓴 시트" sheetId="1" r:id="rId1"/></sheets></workbook>',
      'xl/_rels/workbook.xml.rels':
        '<Relationships><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="/xl/worksheets/sheet1.xml"/></Relationships>',
      'xl/worksheets/sheet1.xml': sheetXml,
    };
    const read = await readXlsx(new Uint8Array(zip(files)));
    expect(read).toEqual([
      {
        name: '손으로 쓴 시트',
        rows: [
          ['인라인', '나눈 글자', ''],
          ['true', '2.5', '#REF!'],
        ],
        truncated: false,
      },
    ]);
  });

  it('refuses what is not a workbook', async () => {
    await expect(readXlsx(new TextEncoder().encode('not a zip at all, just text'))).rejects.toThrow('not a zip archive');
    await expect(readXlsx(new Uint8Array(zip({ 'a.txt': 'x' })))).rejects.toThrow('no workbook');
  });

  it('tells date formats from others as exceljs does', () => {
    expect(isDateFormat('yyyy-mm-dd')).toBe(true);
    expect(isDateFormat('[h]:mm:ss')).toBe(true);
    expect(isDateFormat('#,##0 "원"')).toBe(false);
    expect(isDateFormat('[Red]0.00')).toBe(false);
    expect(isDateFormat('0.00E+00')).toBe(false);
  });
});

/** A zip of text files: the first stored, the others deflated (both ways a writer may choose). */
function zip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  Object.entries(files).forEach(([name, text], index) => {
    const raw = Buffer.from(text);
    const method = index === 0 ? 0 : 8;
    const data = method === 0 ? raw : deflateRawSync(raw);
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(method, 8);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(raw.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(method, 10);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(raw.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, data);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + data.length;
  });
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

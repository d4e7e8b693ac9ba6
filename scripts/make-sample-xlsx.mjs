// Writes apps/web/public/sample.xlsx: the Excel sample of bulk account registration
// (columns name, email, password, groups). Run again after changing the columns:
//   node scripts/make-sample-xlsx.mjs
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'apps/web/public/sample.xlsx');

const workbook = new ExcelJS.Workbook();
workbook.creator = 'Bogwan';
// A fixed date keeps the file identical from run to run.
workbook.created = new Date('2026-01-01T00:00:00Z');
workbook.modified = workbook.created;
const sheet = workbook.addWorksheet('users');
sheet.columns = [
  { header: 'name', key: 'name', width: 16 },
  { header: 'email', key: 'email', width: 28 },
  { header: 'password', key: 'password', width: 18 },
  { header: 'groups', key: 'groups', width: 24 },
];
sheet.getRow(1).font = { bold: true };
// An empty password means the system's initial password; groups are names separated by commas.
sheet.addRow({ name: '홍길동', email: 'hong@example.com', password: '', groups: 'default' });
sheet.addRow({ name: 'Jane Doe', email: 'jane@example.com', password: 'Sample!2026', groups: 'default, sales' });

await workbook.xlsx.writeFile(target);
console.log(`wrote ${path.relative(root, target)}`);

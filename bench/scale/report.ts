// The results as one Markdown table per database: each figure at every scale, its growth
// from the smallest scale to the largest, its baseline at the largest scale and the ratio.
import type { Timing } from './server.js';

interface Row {
  label: string;
  unit: string;
  value: (r: any) => number | undefined;
  baseline?: (r: any, restic: any) => number | undefined;
  baselineLabel: string;
  target?: number;
}

const p99 = (key: string) => (r: any) => (r.calls[key] as Timing | undefined)?.p99;
const directP99 = (key: string) => (r: any) => (r.direct[key] as Timing | undefined)?.p99;

const ROWS: Row[] = [
  {
    label: 'start-up (spawn → healthy)',
    unit: 'ms',
    value: (r) => r.startupMs,
    baseline: (r) => r.emptyStartupMs,
    baselineLabel: 'empty installation',
    target: 5000,
  },
  {
    label: 'list 100k folder, first page p99',
    unit: 'ms',
    value: p99('listFirst'),
    baseline: directP99('listFirst'),
    baselineLabel: 'naive SQL page',
    target: 100,
  },
  {
    label: 'list 100k folder, last page p99 (name)',
    unit: 'ms',
    value: p99('listDeep'),
    baseline: directP99('listDeep'),
    baselineLabel: 'naive SQL page',
    target: 100,
  },
  {
    label: 'list 100k folder, last page p99 (-mtime)',
    unit: 'ms',
    value: p99('listDeepMtime'),
    baseline: directP99('listDeep'),
    baselineLabel: 'naive SQL page, name',
    target: 100,
  },
  { label: 'tree expansion (3 levels) p99', unit: 'ms', value: p99('tree'), baseline: directP99('tree'), baselineLabel: 'direct SQL' },
  { label: 'search: name word p99', unit: 'ms', value: p99('search_name'), baseline: directP99('search_name'), baselineLabel: 'substring scan', target: 100 },
  {
    label: 'search: content word p99',
    unit: 'ms',
    value: p99('search_content'),
    baseline: directP99('search_content'),
    baselineLabel: 'substring scan',
    target: 100,
  },
  {
    label: 'search: common word p99',
    unit: 'ms',
    value: p99('search_common'),
    baseline: directP99('search_common'),
    baselineLabel: 'substring scan',
    target: 100,
  },
  { label: 'usage: /api/file/root/usage p99', unit: 'ms', value: p99('rootUsage'), baseline: directP99('rootUsage'), baselineLabel: 'sum over files' },
  { label: 'usage: /api/dashboard p99', unit: 'ms', value: p99('dashboard'), baseline: directP99('rootUsage'), baselineLabel: 'sum over files' },
  { label: 'trash listing p99', unit: 'ms', value: p99('trash'), baseline: directP99('trash'), baselineLabel: 'direct SQL page + count' },
  {
    label: 'server RSS after the calls',
    unit: 'MiB',
    value: (r) => r.memoryAfterCalls?.rssMiB,
    baseline: (r) => r.emptyMemory?.rssMiB,
    baselineLabel: 'empty, just started',
    target: 300,
  },
  {
    label: 'server peak RSS (whole run; snapshots where measured)',
    unit: 'MiB',
    value: (r) => r.memoryAfterSnapshot?.peakMiB,
    baseline: (r) => r.emptyMemory?.rssMiB,
    baselineLabel: 'empty, just started',
    target: 300,
  },
  {
    label: 'snapshot, first',
    unit: 's',
    value: (r) => r.snapshot?.first.seconds,
    baseline: (r, restic) => restic?.[r.files]?.firstSeconds,
    baselineLabel: 'restic first',
  },
  {
    label: 'snapshot, no change',
    unit: 's',
    value: (r) => r.snapshot?.second.seconds,
    baseline: (r, restic) => restic?.[r.files]?.secondSeconds,
    baselineLabel: 'restic no change',
  },
];

const fmt = (v: number | undefined, unit: string) => (v === undefined ? '—' : `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${unit}`);
const ratio = (a: number | undefined, b: number | undefined) => (a === undefined || b === undefined || b === 0 ? '—' : `${(a / b).toFixed(2)}×`);
const scaleName = (files: number) => (files >= 1_000_000 ? `${files / 1_000_000}M` : `${files / 1000}k`);

/** Prints one table per database. */
export function printTable(results: Record<string, any>, dialects: string[]): void {
  for (const dialect of dialects) {
    const scales: any[] = results[dialect] ?? [];
    if (scales.length === 0) continue;
    const first = scales[0];
    const last = scales.at(-1);
    console.log(`\n${dialect}`);
    console.log(`| figure | ${scales.map((s) => scaleName(s.files)).join(' | ')} | growth | baseline at ${scaleName(last.files)} | ÷ baseline | target |`);
    console.log(`|---|${scales.map(() => '---:|').join('')}---:|---|---:|---|`);
    for (const row of ROWS) {
      const values = scales.map((s) => row.value(s));
      const base = row.baseline?.(last, results.restic);
      const target =
        row.target === undefined ? '' : `< ${row.target} ${row.unit} ${values.at(-1) !== undefined && values.at(-1)! < row.target ? 'met' : 'missed'}`;
      console.log(
        `| ${row.label} | ${values.map((v) => fmt(v, row.unit)).join(' | ')} | ${ratio(values.at(-1), values[0])} | ${fmt(base, row.unit)} (${row.baselineLabel}) | ${ratio(values.at(-1), base)} | ${target} |`,
      );
    }
    console.log(
      `load: ${scales.map((s) => `${scaleName(s.files)} ${s.loadSeconds.toFixed(0)} s`).join(', ')}; search hits at ${scaleName(first.files)}: ${JSON.stringify(first.hits)}`,
    );
  }
}

import { describe, expect, it } from 'vitest';
import { filterToQuery } from '../lib/audit-filter';
import { exportPath } from './export-events';

describe('export address', () => {
  it('carries the format, the reader’s language and exactly the filter of the screen', () => {
    const filter = filterToQuery({
      actor: 'u1',
      actorLabel: '박감사 · p@example.com',
      path: '/감사팀/계약 100%_최종',
      actions: ['file.upload', 'file.rename'],
      outcome: '',
      from: '',
      to: '',
    });
    const url = new URL(`https://x/api${exportPath(filter, 'jsonl', 'en')}`);
    expect(url.pathname).toBe('/api/event/export');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      format: 'jsonl',
      lang: 'en',
      actor: 'u1',
      path: '/감사팀/계약 100%_최종',
      action: 'file.upload,file.rename',
    });
  });
});

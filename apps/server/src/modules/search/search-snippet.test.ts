import { describe, expect, it } from 'vitest';
import { SNIPPET_BEFORE, tidySnippet } from './search-snippet.js';

/** A passage as the repository cuts it: SNIPPET_BEFORE characters, then the match. */
const cutAround = (text: string, match: string) => {
  const at = text.indexOf(match);
  return Array.from(text)
    .slice(Math.max(0, at - SNIPPET_BEFORE), at + 120)
    .join('');
};

describe('search snippets', () => {
  it('starts a passage cut from the middle of a Korean text at an eojeol, not inside one', () => {
    const text = '올해 사업 계획은 다음과 같습니다. 첫째로 우리는 고객만족도를 높이고 둘째로 분기별 예산을 재검토합니다.';
    const snippet = tidySnippet(cutAround(text, '예산'), true);
    expect(snippet).toContain('분기별 예산을 재검토합니다.');
    // Every word it starts with is a whole eojeol of the text.
    const first = snippet.split(' ')[0]!;
    expect(text.split(' ')).toContain(first);
  });

  it('drops the partial English word the cut lands in and keeps the match', () => {
    const text = 'The committee reviewed the quarterly statements and approved the budget for zanzibar';
    const passage = cutAround(text, 'budget');
    expect(passage.startsWith(' ')).toBe(false);
    const snippet = tidySnippet(passage, true);
    expect(text.split(' ')).toContain(snippet.split(' ')[0]);
    expect(snippet).toContain('the budget for zanzibar');
  });

  it('keeps a passage from the start of the text whole, and folds white space', () => {
    expect(tidySnippet('누리  보고서\n\n2분기', false)).toBe('누리 보고서 2분기');
  });

  it('starts at the match, marked as cut, when the whole lead-in is one word', () => {
    const passage = `${'가'.repeat(SNIPPET_BEFORE)}예산안 검토`;
    expect(tidySnippet(passage, true)).toBe('…예산안 검토');
  });
});

import { describe, expect, it } from 'vitest';
import { navMatches, visibleNavItems } from './nav-matches';

const labels: Record<string, string> = {
  nav_home: '홈',
  nav_recent: '최근 항목',
  nav_shared: '공유',
  nav_starred: '즐겨찾기',
  nav_requests: '요청',
  nav_storage: '저장소',
  nav_dashboard: '대시보드',
  nav_snapshot: '스냅샷',
  nav_restore: '복원',
  nav_event: '활동 로그',
  nav_log: '시스템 로그',
  nav_trash: '휴지통',
  nav_my_trash: '내 휴지통',
  nav_guide: '가이드',
};
const label = (item: { label: string }) => labels[item.label] ?? item.label;

describe('navigation matches', () => {
  it('matches labels at once, case-insensitive, labels starting with the query first', () => {
    const items = visibleNavItems(3);
    expect(navMatches(items, '로그', label).map((i) => i.path)).toEqual(['/event', '/log']);
    expect(navMatches(items, '  ', label)).toEqual([]);
    expect(navMatches(items, 'TRASH', label).map((i) => i.path)).toEqual(['/my-trash', '/trash']);
  });

  it('never offers administration entries to a user', () => {
    expect(navMatches(visibleNavItems(1), '로그', label)).toEqual([]);
    expect(navMatches(visibleNavItems(1), '저장', label).map((i) => i.path)).toEqual(['/storage']);
  });
});

import { describe, expect, it } from 'vitest';
import { markupText, parseMarkup } from './markup';

describe('notification markup', () => {
  it('keeps the allowed tags and their text', () => {
    expect(parseMarkup('Upload <b>report.pdf</b> done<br>now <em>ok</em>')).toEqual([
      'Upload ',
      { tag: 'b', children: ['report.pdf'] },
      ' done',
      { tag: 'br', children: [] },
      'now ',
      { tag: 'em', children: ['ok'] },
    ]);
  });

  it('drops script and style with their contents', () => {
    expect(parseMarkup('a<script>alert(1)</script>b<style>*{}</style>c')).toEqual(['abc']);
    expect(markupText('<SCRIPT src=x>steal()</SCRIPT>safe')).toBe('safe');
  });

  it('drops every attribute, so event handlers never survive', () => {
    const nodes = parseMarkup('<span onmouseover="alert(1)" style="color:red">hi</span><b onclick=x>b</b>');
    expect(nodes).toEqual([
      { tag: 'span', children: ['hi'] },
      { tag: 'b', children: ['b'] },
    ]);
    expect(JSON.stringify(nodes)).not.toMatch(/onmouseover|onclick|style/);
  });

  it('drops tags outside the list, keeping their text', () => {
    expect(parseMarkup('<img src=x onerror="alert(1)">x<a href="javascript:alert(1)">link</a><div>d</div>')).toEqual(['xlinkd']);
    expect(parseMarkup('<svg onload=alert(1)><text>t</text></svg>')).toEqual(['t']);
  });

  it('keeps a quoted > inside an attribute from ending the tag early', () => {
    expect(parseMarkup('<img alt="a>b" onerror=alert(1)>ok')).toEqual(['ok']);
  });

  it('decodes entities into text, which React escapes again', () => {
    expect(parseMarkup('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#39;q&#x27;')).toEqual(["<script>alert(1)</script> & 'q'"]);
  });

  it('drops comments and closes unbalanced tags', () => {
    expect(parseMarkup('<!-- <script>x</script> -->a<b>bold')).toEqual(['a', { tag: 'b', children: ['bold'] }]);
    expect(parseMarkup('</i>plain')).toEqual(['plain']);
  });

  it('reads plain text', () => {
    expect(markupText('Task <strong>backup</strong> failed<br/>retry')).toBe('Task backup failed retry');
  });
});

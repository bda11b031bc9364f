import { describe, expect, it } from '@jest/globals';
import { cell, code, details, escapeHtml, escapeMarkdown, linkText, table, urlPath } from '../../src/report/markdown.js';

describe('escapeMarkdown', () => {
  it.each([
    ['plain text', 'plain text'],
    ['a | b', 'a \\| b'],
    ['<script>alert(1)</script>', '&lt;script&gt;alert(1)&lt;/script&gt;'],
    ['line one\nline two\r\nthree', 'line one<br>line two<br>three'],
    ['**bold** _it_ `code` [link](x) ~~s~~', '\\*\\*bold\\*\\* \\_it\\_ \\`code\\` \\[link\\](x) \\~\\~s\\~\\~'],
    ['back\\slash', 'back\\\\slash'],
    ['a & b "q"', 'a &amp; b &quot;q&quot;'],
    ['Back-off pulling image "web:v2"', 'Back-off pulling image &quot;web:v2&quot;'],
  ])('%p', (text, escaped) => {
    expect(escapeMarkdown(text)).toBe(escaped);
  });
});

describe('linkText', () => {
  it.each([
    ['k8s/web.yaml:12', 'k8s/web.yaml:12'],
    // No entity a reader could see: `&` is escaped as CommonMark escapes punctuation.
    ['k8s/R&D app.yaml:1', 'k8s/R\\&D app.yaml:1'],
    ['a]b[c', 'a\\]b\\[c'],
    ['<img src=x>', '\\<img src=x\\>'],
    ['a|b_c*d`e', 'a\\|b\\_c\\*d\\`e'],
  ])('%p', (text, escaped) => {
    expect(linkText(text)).toBe(escaped);
    expect(linkText(text)).not.toContain('&amp;');
  });
});

describe('cell', () => {
  it('never leaves a cell empty and never lets a pipe or newline split the row', () => {
    expect(cell('')).toBe(' ');
    const c = cell('x|y\nz');
    expect(c).not.toMatch(/(^|[^\\])\|/);
    expect(c).not.toContain('\n');
  });
});

describe('escapeHtml', () => {
  it('escapes the characters that start markup', () => {
    expect(escapeHtml('<b>&"</b>')).toBe('&lt;b&gt;&amp;&quot;&lt;/b&gt;');
  });
});

describe('code', () => {
  it.each([
    ['kind-ci', '`kind-ci`'],
    ['a`b', '``a`b``'],
    ['`x`', '`` `x` ``'],
    ['two\nlines', '`two lines`'],
  ])('%p -> %p', (text, span) => {
    expect(code(text)).toBe(span);
  });
});

describe('table and details', () => {
  it('renders a GFM table', () => {
    expect(
      table(
        ['A', 'B'],
        [
          ['1', '2'],
          ['3', '4'],
        ],
      ),
    ).toBe('| A | B |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |');
  });
  it('leaves a blank line after <summary> so the body renders as markdown', () => {
    expect(details('title', 'body')).toBe('<details>\n<summary>title</summary>\n\nbody\n\n</details>');
  });
});

describe('urlPath', () => {
  it('encodes each segment, including characters that would end a markdown link', () => {
    expect(urlPath(['k8s', 'my app (v2).yaml'])).toBe('k8s/my%20app%20%28v2%29.yaml');
  });
});

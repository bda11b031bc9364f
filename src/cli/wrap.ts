/**
 * Word wrapping for `--help` (80 columns) and for the live log on a terminal (its width): a terminal breaks
 * a long line at its last column, mid-word, and the rest starts at the left edge, where it reads as a line of
 * its own. Here a line breaks at spaces instead, and its continuation rows are indented (a hanging indent)
 * so they read as part of it. A word wider than a row (a URL, an image digest) is cut, as a terminal would.
 */

/** Columns a character takes on a terminal: 0 for combining marks and format characters (joiners), 2 for East Asian wide
 *  characters and emoji, 1 otherwise. Enough for what kubewait and container logs print; not full UAX #11. */
function charWidth(char: string): number {
  if (/\p{M}|\p{Cf}/u.test(char)) return 0;
  // Emoji shown as emoji by default (❓, ✅; not ⚠ or ©, which are text unless U+FE0F follows), Hangul
  // Jamo, CJK, Hangul syllables, compatibility ideographs and forms, fullwidth forms.
  const wide = /[\p{Emoji_Presentation}\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u;
  return wide.test(char) ? 2 : 1;
}

/** Columns `text` takes on a terminal (no control sequences in it). */
export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

/**
 * `line` as rows of at most `width` columns, broken at runs of spaces (dropped at the break, kept inside a
 * row); the first row keeps the line's own indentation, every later row starts with `indent` spaces (at most
 * half the width, so a row always has room for text). A width of 0 or less, or a line that fits, is one row.
 */
export function wrapLine(line: string, width: number, indent: number): string[] {
  if (width <= 0 || displayWidth(line) <= width) return [line];
  const hanging = ' '.repeat(Math.max(0, Math.min(indent, Math.floor(width / 2))));
  const lead = /^ */.exec(line)![0];
  const rows: string[] = [];
  let row = lead;
  let used = displayWidth(lead);
  let empty = true; // nothing but indentation in `row` yet
  const newRow = () => {
    rows.push(row);
    row = hanging;
    used = hanging.length;
    empty = true;
  };
  for (const [, gap, word] of line.slice(lead.length).matchAll(/( *)([^ ]+)/g)) {
    let rest = word!;
    let restWidth = displayWidth(rest);
    if (!empty && used + gap!.length + restWidth > width) newRow();
    if (!empty) {
      row += gap;
      used += gap!.length;
    }
    // Cut what does not fit on a row of its own.
    while (used + restWidth > width) {
      const [head, tail] = cut(rest, width - used);
      row += head;
      rest = tail;
      restWidth = displayWidth(rest);
      newRow();
    }
    row += rest;
    used += restWidth;
    empty = false;
  }
  rows.push(row);
  return rows;
}

/** `word` split after at most `room` columns (at least one character, so wrapping always advances). */
function cut(word: string, room: number): [string, string] {
  let taken = 0;
  let end = 0;
  for (const char of word) {
    const w = charWidth(char);
    if (taken + w > room && end > 0) break;
    taken += w;
    end += char.length;
  }
  return [word.slice(0, end), word.slice(end)];
}

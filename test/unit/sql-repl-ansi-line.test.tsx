import { test } from 'node:test';
import assert from 'node:assert/strict';
import React from 'react';
import { ansiLine } from '../../src/screens/sql/ansi-line';
import type { ViewKind, ViewLine } from '../../src/screens/sql/transcript-view';

// A row of the SQL screen is one <Text> holding its styles as SGR codes. Ink must draw it exactly
// as it drew the nested <Text> per segment that it replaces (chalk at level 1, as in a terminal).
process.env.FORCE_COLOR = '1';
const { renderToString, Text } = await import('ink');

const COLORS: Partial<Record<ViewKind, string>> = { border: 'gray', blob: 'cyan', muted: 'gray', prompt: 'cyan', error: 'red' };
const color = (k: ViewKind) => COLORS[k];

function Nested({ line }: { line: ViewLine }): React.JSX.Element {
  return (
    <Text>
      {line.map((s, i) => (
        <Text key={i} color={color(s.kind)} dimColor={s.kind === 'null'} bold={s.kind === 'header'} inverse={s.kind === 'cursor'}>
          {s.text}
        </Text>
      ))}
    </Text>
  );
}

const lines: ViewLine[] = [
  [
    { text: '|', kind: 'border' },
    { text: ' id ', kind: 'header' },
    { text: '|', kind: 'border' },
    { text: ' 名前 ', kind: 'header' },
    { text: '|', kind: 'border' },
  ],
  [
    { text: '|', kind: 'border' },
    { text: '  1 ', kind: 'number' },
    { text: '|', kind: 'border' },
    { text: ' NULL ', kind: 'null' },
    { text: '|', kind: 'border' },
    { text: " x'00ff' (2 B) ", kind: 'blob' },
    { text: '…', kind: 'text' },
  ],
  [
    { text: 'db> ', kind: 'prompt' },
    { text: 'SELE', kind: 'text' },
    { text: 'C', kind: 'cursor' },
    { text: '', kind: 'text' },
    { text: 'T 1;', kind: 'text' },
  ],
  [{ text: 'no such table: x', kind: 'error' }],
];

test('one <Text> with the codes built in draws the same as a <Text> per segment', () => {
  for (const line of lines) {
    const nested = renderToString(<Nested line={line} />);
    assert.match(nested, /\x1b\[/, 'colours are on in this test');
    assert.equal(renderToString(<Text>{ansiLine(line, color)}</Text>), nested, JSON.stringify(line));
  }
});

test('without colours the line is its plain text', () => {
  assert.equal(ansiLine(lines[1]!, color, false), "|  1 | NULL | x'00ff' (2 B) …");
});

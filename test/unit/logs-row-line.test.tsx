import { test } from 'node:test';
import assert from 'node:assert/strict';
import React from 'react';
import type { LogEntry } from '../../src/api/logs/entry';
import { compilePattern } from '../../src/log-records/filter';
import { rowSegments, streamLayout, type Segment } from '../../src/log-records/rows';
import { logEntry } from '../helpers/log-entry';

// colours as on a terminal (chalk, which Ink's <Text> uses, reads this when first imported)
process.env.FORCE_COLOR = '1';
const { Text, renderToString } = await import('ink');
const { rowLine } = await import('../../src/screens/logs/row-line');

const TONES: Record<string, string> = { ok: 'green', info: 'blue', warn: 'yellow', error: 'red', muted: 'gray', accent: 'cyan' };

/** How rows were drawn before: a <Text> per segment inside the row's <Text>. */
function Nested({ segments, selected, color }: { segments: Segment[]; selected: boolean; color: boolean }): React.JSX.Element {
  const tone = (t: string | undefined) => (color && t ? TONES[t] : undefined);
  return (
    <Text wrap="truncate" inverse={selected}>
      {segments.map((s, i) =>
        s.mark ? (
          <Text key={i} color={tone('accent')} inverse={!selected} underline={selected} bold>
            {s.text}
          </Text>
        ) : (
          <Text key={i} color={selected ? undefined : tone(s.tone)}>
            {s.text}
          </Text>
        ),
      )}
    </Text>
  );
}

function rec(statusCode: number, path: string, ua: string): LogEntry {
  return logEntry({
    timestamp: '2026-08-08T12:34:56.789Z',
    requestId: 'ab'.repeat(16),
    cacheStatus: 'MISS',
    statusCode,
    bytesSent: 123_456,
    remoteIp: '203.0.113.9',
    countryCode: 'DE',
    edgeLocation: 'FR',
    scheme: 'https',
    host: 'a.example',
    path,
    userAgent: ua,
  });
}

test('a row as one string with SGR codes draws exactly what the nested <Text> per segment drew (tones, matches, selection, no colour, cut at the width)', () => {
  const records = [
    rec(200, '/assets/site.css?v=3', 'Mozilla/5.0 css'),
    rec(404, '/missing', 'curl/8.0'),
    rec(503, '/api/\u001b[31mx', 'bot'),
    rec(302, '/' + 'x'.repeat(200), 'ua'),
  ];
  const p = compilePattern('css|x');
  assert.ok(p.ok);
  let compared = 0;
  for (const width of [80, 120, 40]) {
    const layout = streamLayout(width, 'short');
    for (const e of records) {
      for (const highlight of [null, p.all]) {
        const segs = rowSegments(e, layout, { highlight });
        for (const selected of [false, true]) {
          for (const color of [true, false]) {
            const tone = (t: string | undefined) => (color && t ? TONES[t] : undefined);
            const before = renderToString(<Nested segments={segs} selected={selected} color={color} />, { columns: width });
            const after = renderToString(<Text wrap="truncate">{rowLine(segs, selected, tone)}</Text>, { columns: width });
            assert.equal(after, before, `${e.statusCode} ${e.path} width ${width} selected ${selected} colour ${color} highlight ${highlight !== null}`);
            compared++;
          }
        }
      }
    }
  }
  assert.equal(compared, 3 * 4 * 2 * 2 * 2);
  // and the codes are there: a 503 is red, a match is inverse bold accent, a selected row is inverse
  const segs = rowSegments(records[2]!, streamLayout(120, 'short'), { highlight: p.all });
  assert.match(
    rowLine(segs, false, (t) => (t ? TONES[t] : undefined)),
    /\x1b\[31m503\x1b\[39m/,
  );
  assert.match(
    rowLine(segs, false, (t) => (t ? TONES[t] : undefined)),
    /\x1b\[7m\x1b\[1m\x1b\[36mx\x1b\[39m\x1b\[22m\x1b\[27m/,
  );
  assert.match(
    rowLine(segs, true, () => undefined),
    /^\x1b\[7m.*\x1b\[27m$/,
  );
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tableRows } from '../helpers/pty';

const screen = [
  'Video libraries  3 libraries',
  'NAME          ID  VIDEOS  PRIO WEIGHT',
  'acme corp  104220       5     1    100',
  'b              20  12,345   100     50',
  '',
  '1 of 3',
].join('\n');

test('tableRows: cells by header, a right-aligned number wider than its header read whole', () => {
  assert.deepEqual(tableRows(screen, 'NAME', ['NAME', 'ID', 'VIDEOS', 'PRIO', 'WEIGHT']), [
    { NAME: 'acme corp', ID: '104220', VIDEOS: '5', PRIO: '1', WEIGHT: '100' },
    { NAME: 'b', ID: '20', VIDEOS: '12,345', PRIO: '100', WEIGHT: '50' },
  ]);
});

test('tableRows: headers two spaces apart need no list; a missing table or column is an error naming it', () => {
  assert.deepEqual(
    tableRows('A B  C\nx y  z\n', 'A B').map((r) => r['C']),
    ['z'],
  );
  assert.throws(() => tableRows(screen, 'STATUS'), /no table with a header starting "STATUS"/);
  assert.throws(() => tableRows(screen, 'NAME', ['NAME', 'REGION']), /no column "REGION"/);
});

test('tableRows: a space inside values aligned in every row is not taken for the gap between columns', () => {
  const sizes = ['  SIZE         OF', '1.3 MB  1024.0 MB', '32.0 KB  1024.0 MB'.padStart(17)].join('\n');
  assert.deepEqual(tableRows(sizes, 'SIZE', ['SIZE', 'OF']), [
    { SIZE: '1.3 MB', OF: '1024.0 MB' },
    { SIZE: '32.0 KB', OF: '1024.0 MB' },
  ]);
});

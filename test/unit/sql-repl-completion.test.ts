import { test } from 'node:test';
import assert from 'node:assert/strict';
import { commonPrefix, complete, quoteName, referencedTables, type Schema } from '../../src/sql-repl/completion';

const schema: Schema = {
  tables: [
    { name: 'customers', kind: 'table', columns: ['id', 'name', 'email', 'created_at'] },
    { name: 'customer_totals', kind: 'view', columns: ['customer_id', 'total'] },
    { name: 'orders', kind: 'table', columns: ['id', 'customer_id', 'status', 'total_cents'] },
    { name: 'order items', kind: 'table', columns: ['order id', 'qty'] },
  ],
};

/** Candidates with the cursor at the end of `text`. */
const at = (text: string) => complete(text, text.length, schema);

test('after FROM / JOIN / INTO / UPDATE: the tables, quoted when they must be', () => {
  assert.deepEqual(at('SELECT * FROM custo').candidates, ['customer_totals', 'customers']);
  assert.deepEqual(at('SELECT * FROM ').candidates, ['customer_totals', 'customers', '"order items"', 'orders']);
  assert.deepEqual(at('select * from customers c join ord').candidates, ['"order items"', 'orders']);
  assert.deepEqual(at('INSERT INTO or').candidates, ['"order items"', 'orders']);
  assert.deepEqual(at('UPDATE cu').candidates, ['customer_totals', 'customers']);
  const c = at('SELECT * FROM custo');
  assert.equal(c.start, 'SELECT * FROM '.length, 'the word being typed is what gets replaced');
  assert.equal(c.end, 'SELECT * FROM custo'.length);
});

test('columns: of the tables the statement names, before tables and keywords', () => {
  assert.deepEqual(at('SELECT * FROM customers WHERE em').candidates, ['email']);
  // cursor in the middle: only what is before the cursor counts as the word
  const mid = complete('SELECT cust FROM orders', 'SELECT cust'.length, schema);
  assert.deepEqual(mid.candidates, ['customer_id', 'customer_totals', 'customers']);
  // with no table named yet, every table's columns are offered
  assert.ok(at('SELECT tot').candidates.includes('total_cents'));
  assert.ok(at('SELECT tot').candidates.includes('total'));
});

test("qualified names: t.col and alias.col give that table's columns", () => {
  assert.deepEqual(at('SELECT o.st').candidates, [], 'an unknown alias gives nothing');
  const text = 'SELECT o.st FROM orders o';
  assert.deepEqual(complete(text, 'SELECT o.st'.length, schema).candidates, ['status']);
  assert.deepEqual(at('SELECT * FROM orders AS x WHERE x.').candidates, ['id', 'customer_id', 'status', 'total_cents']);
  assert.deepEqual(at('SELECT customers.na').candidates, ['name']);
  assert.deepEqual(at('SELECT * FROM "order items" oi WHERE oi.ord').candidates, ['"order id"']);
});

test('keywords follow the case typed; functions too; nothing for an empty word outside table lists', () => {
  assert.ok(at('SEL').candidates.includes('SELECT'));
  assert.ok(at('sel').candidates.includes('select'));
  assert.ok(at('SELECT * FROM customers WH').candidates.includes('WHERE'));
  assert.ok(at('select coa').candidates.includes('coalesce'));
  assert.ok(at('SELECT COA').candidates.includes('COALESCE'));
  assert.deepEqual(at('SELECT ').candidates, []);
});

test('nothing inside a string; a "quoted identifier" being typed is completed', () => {
  assert.deepEqual(at("SELECT * FROM customers WHERE name = 'cus").candidates, []);
  assert.deepEqual(at('SELECT * FROM "ord').candidates, ['"order items"', 'orders']);
});

test('dot-commands: names, then tables, modes and on/off as arguments', () => {
  assert.deepEqual(at('.sch').candidates, ['.schema']);
  assert.deepEqual(at('.d').candidates, ['.describe', '.dump']);
  assert.deepEqual(at('.schema cust').candidates, ['customer_totals', 'customers']);
  assert.deepEqual(at('.describe ord').candidates, ['order items', 'orders']);
  assert.deepEqual(at('.mode b').candidates, ['box']);
  assert.deepEqual(at('.timer o').candidates, ['on', 'off']);
  assert.deepEqual(at('.read fi').candidates, []);
});

test('referencedTables reads FROM lists, JOINs and aliases', () => {
  const refs = referencedTables('SELECT * FROM customers c, orders AS o JOIN "order items" oi ON oi."order id" = o.id', schema);
  assert.deepEqual([...refs.keys()].sort(), ['c', 'customers', 'o', 'oi', 'order items', 'orders']);
  assert.equal(refs.get('oi')!.name, 'order items');
});

test('quoteName: bare when it can be, double-quoted for spaces, keywords and quotes', () => {
  assert.equal(quoteName('orders'), 'orders');
  assert.equal(quoteName('order items'), '"order items"');
  assert.equal(quoteName('select'), '"select"');
  assert.equal(quoteName('a"b'), '"a""b"');
});

test('commonPrefix: what all candidates share, without case', () => {
  assert.equal(commonPrefix(['customer_totals', 'customers']), 'customer');
  assert.equal(commonPrefix(['SELECT', 'select']), 'SELECT');
  assert.equal(commonPrefix(['a', 'b']), '');
  assert.equal(commonPrefix([]), '');
});

import type Database from 'libsql';
import type { Random } from '../random';

type Db = InstanceType<typeof Database>;
type Row = (string | number | bigint | Buffer | null)[];

const FIRST = [
  'Anna',
  'Žofie',
  'Jiří',
  'Zoë',
  'Ørjan',
  'Ana',
  'José',
  'Björn',
  'Chloé',
  'Mateusz',
  'Aiko',
  'Hiroshi',
  'Li',
  'Wei',
  'Fatima',
  'Omar',
  'Olivia',
  'Liam',
  'Noah',
  'Emma',
  'Søren',
  'Ilse',
  'Dmitri',
  'Şule',
  'Nguyễn',
  'Priya',
  'Arjun',
  'Lucía',
  'Maëlle',
  'Kwame',
];
const LAST = [
  'Nováková',
  'Dvořák',
  'Smith',
  'García',
  'Müller',
  'Rossi',
  'Kowalski',
  'Tanaka',
  '李',
  '王',
  'Haddad',
  'Andersen',
  "O'Brien",
  'Ivanov',
  'Yılmaz',
  'Văn An',
  'Patel',
  'Fernández',
  'Lefèvre',
  'Mensah',
  'de la Cruz',
  'Nakamura',
  'Schmidt',
  'Jensen',
];
const COUNTRIES = ['CZ', 'DE', 'US', 'GB', 'FR', 'ES', 'PL', 'JP', 'CN', 'NO', 'SE', 'TR', 'VN', 'IN', 'GH', 'BR', null];
const PRODUCTS = [
  'Espresso beans 1 kg',
  'Pour-over kettle',
  'Ceramic mug ☕',
  'Grinder (burr)',
  'Paper filters ×100',
  'Cold brew jar',
  'Milk frother',
  'Tamper 58 mm',
  'Scale 0.1 g',
  'Gift card',
  'Descaler',
  'Travel tumbler',
  'Dripper V60',
  'Chemex 6-cup',
  'Moka pot',
  'Knock box',
];
const STATUSES: [string, number][] = [
  ['delivered', 60],
  ['shipped', 12],
  ['paid', 10],
  ['pending', 8],
  ['cancelled', 6],
  ['refunded', 4],
];
const CURRENCIES: [string, number][] = [
  ['EUR', 60],
  ['USD', 25],
  ['GBP', 10],
  ['CZK', 5],
];

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const money = (n: number) => Math.round(n * 100) / 100;
/** Snowflake-style ids: above 2^53, so a client that reads them as doubles loses digits. */
const snowflake = (ms: number, seq: number) => (BigInt(ms - 1_288_834_974_657) << 22n) | BigInt(seq & 0x3fffff);

function insertAll(db: Db, sql: string, rows: Row[]): void {
  const stmt = db.prepare(sql);
  for (const r of rows) stmt.run(r);
}

/** The primary database: a small shop (customers, products, orders, items, invoices, events). */
export function seedShop(db: Db, random: Random, now: number): void {
  db.exec(`
    CREATE TABLE customers (
      id INTEGER PRIMARY KEY,
      email TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      country TEXT,
      created_at TEXT NOT NULL,
      lifetime_value REAL NOT NULL DEFAULT 0,
      avatar BLOB,
      notes TEXT
    );
    CREATE TABLE products (
      id INTEGER PRIMARY KEY,
      sku TEXT NOT NULL UNIQUE,
      name TEXT NOT NULL,
      price REAL NOT NULL CHECK (price >= 0),
      weight_kg REAL,
      stock INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE orders (
      id INTEGER PRIMARY KEY,
      customer_id INTEGER NOT NULL REFERENCES customers(id),
      status TEXT NOT NULL CHECK (status IN ('pending','paid','shipped','delivered','cancelled','refunded')),
      ordered_at TEXT NOT NULL,
      total REAL NOT NULL,
      currency TEXT NOT NULL DEFAULT 'EUR',
      updated_at TEXT
    );
    CREATE TABLE order_items (
      order_id INTEGER NOT NULL REFERENCES orders(id) ON DELETE CASCADE,
      product_id INTEGER NOT NULL REFERENCES products(id),
      quantity INTEGER NOT NULL CHECK (quantity > 0),
      unit_price REAL NOT NULL,
      PRIMARY KEY (order_id, product_id)
    ) WITHOUT ROWID;
    CREATE TABLE invoices (
      id INTEGER PRIMARY KEY,
      order_id INTEGER NOT NULL UNIQUE REFERENCES orders(id),
      number TEXT NOT NULL UNIQUE,
      issued_at TEXT NOT NULL,
      due_at TEXT NOT NULL,
      amount REAL NOT NULL,
      paid_at TEXT,
      pdf BLOB
    );
    CREATE TABLE events (
      id INTEGER PRIMARY KEY,
      snowflake_id INTEGER NOT NULL UNIQUE,
      customer_id INTEGER REFERENCES customers(id),
      kind TEXT NOT NULL,
      payload TEXT,
      at TEXT NOT NULL
    );
    CREATE INDEX idx_orders_customer ON orders(customer_id);
    CREATE INDEX idx_orders_status ON orders(status, ordered_at);
    CREATE INDEX idx_events_customer ON events(customer_id, at);
    CREATE VIEW customer_totals AS
      SELECT c.id, c.name, c.country, count(o.id) AS orders, round(coalesce(sum(o.total), 0), 2) AS spent
      FROM customers c LEFT JOIN orders o ON o.customer_id = c.id AND o.status NOT IN ('cancelled', 'refunded')
      GROUP BY c.id;
    CREATE TRIGGER orders_touch AFTER UPDATE OF status ON orders
    BEGIN
      UPDATE orders SET updated_at = strftime('%Y-%m-%dT%H:%M:%SZ', 'now') WHERE id = NEW.id;
    END;
  `);
  const day = 86_400_000;
  const start = now - 720 * day;
  db.exec('BEGIN');
  const customers: Row[] = [];
  for (let id = 1; id <= 1200; id++) {
    const first = random.pick(FIRST);
    const last = random.pick(LAST);
    const created = start + random.int(0, 700) * day + random.int(0, day - 1);
    const avatar = random.bool(0.15) ? Buffer.from(Array.from({ length: random.int(8, 48) }, () => random.int(0, 255))) : null;
    const notes = random.bool(0.1)
      ? random.pick(['VIP — call before shipping', 'prefers email', 'wholesale account', 'uses a 🧾 invoice address', 'line one\nline two', "quote's test"])
      : null;
    customers.push([
      id,
      `${
        first
          .toLowerCase()
          .normalize('NFD')
          .replace(/[^a-z]/g, '') || 'user'
      }.${id}@example.com`,
      `${first} ${last}`,
      random.pick(COUNTRIES),
      iso(created),
      0,
      avatar,
      notes,
    ]);
  }
  insertAll(db, 'INSERT INTO customers (id, email, name, country, created_at, lifetime_value, avatar, notes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', customers);
  const products: Row[] = PRODUCTS.map((name, i) => [
    i + 1,
    `SKU-${String(1000 + i * 7)}`,
    name,
    money(random.int(300, 25_000) / 100),
    random.bool(0.1) ? null : money(random.int(50, 4000) / 1000),
    random.int(0, 500),
  ]);
  insertAll(db, 'INSERT INTO products (id, sku, name, price, weight_kg, stock) VALUES (?, ?, ?, ?, ?, ?)', products);
  const orders: Row[] = [];
  const items: Row[] = [];
  const invoices: Row[] = [];
  for (let id = 1; id <= 3000; id++) {
    const customer = random.int(1, 1200);
    const at = start + random.int(0, 719) * day + random.int(0, day - 1);
    const status = random.weighted(STATUSES);
    const picked = new Set<number>();
    let total = 0;
    for (let k = random.int(1, 4); k > 0; k--) {
      const p = random.int(1, products.length);
      if (picked.has(p)) continue;
      picked.add(p);
      const qty = random.int(1, 5);
      const price = products[p - 1]![3] as number;
      total += qty * price;
      items.push([id, p, qty, price]);
    }
    orders.push([id, customer, status, iso(at), money(total), random.weighted(CURRENCIES), null]);
    if (status !== 'pending' && status !== 'cancelled') {
      const paid = status === 'paid' || status === 'shipped' || status === 'delivered' || status === 'refunded';
      invoices.push([
        id,
        id,
        `INV-${new Date(at).getUTCFullYear()}-${String(id).padStart(6, '0')}`,
        iso(at + 3_600_000),
        iso(at + 30 * day),
        money(total),
        paid && random.bool(0.97) ? iso(at + random.int(1, 20) * day) : null,
        random.bool(0.3) ? Buffer.from(`%PDF-1.7\n% invoice ${id}\n`) : null,
      ]);
    }
  }
  insertAll(db, 'INSERT INTO orders (id, customer_id, status, ordered_at, total, currency, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', orders);
  insertAll(db, 'INSERT INTO order_items (order_id, product_id, quantity, unit_price) VALUES (?, ?, ?, ?)', items);
  insertAll(db, 'INSERT INTO invoices (id, order_id, number, issued_at, due_at, amount, paid_at, pdf) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', invoices);
  const events: Row[] = [];
  const kinds = ['login', 'view_product', 'add_to_cart', 'checkout', 'password_reset', 'newsletter_opt_in'];
  for (let id = 1; id <= 2500; id++) {
    const at = start + Math.floor((id / 2500) * 719 * day) + random.int(0, 3_600_000);
    const kind = random.pick(kinds);
    const payload =
      kind === 'view_product'
        ? JSON.stringify({ product: random.int(1, products.length), ms: random.int(40, 4000) })
        : random.bool(0.5)
          ? null
          : JSON.stringify({ ua: random.pick(['Mozilla/5.0', 'curl/8.5.0', 'okhttp/4.12']) });
    events.push([id, snowflake(at, id), random.bool(0.9) ? random.int(1, 1200) : null, kind, payload, iso(at)]);
  }
  insertAll(db, 'INSERT INTO events (id, snowflake_id, customer_id, kind, payload, at) VALUES (?, ?, ?, ?, ?, ?)', events);
  db.exec(
    `UPDATE customers SET lifetime_value = coalesce((SELECT round(sum(total), 2) FROM orders WHERE customer_id = customers.id AND status NOT IN ('cancelled','refunded')), 0)`,
  );
  db.exec('COMMIT');
}

/** A second database: product analytics with big integer ids and JSON payloads. */
export function seedAnalytics(db: Db, random: Random, now: number): void {
  db.exec(`
    CREATE TABLE page_views (
      id INTEGER PRIMARY KEY,
      view_id INTEGER NOT NULL UNIQUE,
      path TEXT NOT NULL,
      country TEXT,
      duration_ms INTEGER,
      score REAL,
      at TEXT NOT NULL
    );
    CREATE INDEX idx_page_views_at ON page_views(at);
    CREATE TABLE daily_rollup (day TEXT PRIMARY KEY, views INTEGER NOT NULL, p95_ms REAL) WITHOUT ROWID;
  `);
  db.exec('BEGIN');
  const paths = ['/', '/pricing', '/docs', '/docs/getting-started', '/blog/édition-2026', '/checkout', '/login', '/产品'];
  const rows: Row[] = [];
  for (let id = 1; id <= 2000; id++) {
    const at = now - (2000 - id) * 60_000 * 7;
    rows.push([id, snowflake(at, id), random.pick(paths), random.pick(COUNTRIES), random.bool(0.05) ? null : random.int(20, 9000), random.next(), iso(at)]);
  }
  insertAll(db, 'INSERT INTO page_views (id, view_id, path, country, duration_ms, score, at) VALUES (?, ?, ?, ?, ?, ?, ?)', rows);
  db.exec(`INSERT INTO daily_rollup SELECT substr(at, 1, 10), count(*), max(duration_ms) * 0.95 FROM page_views GROUP BY 1`);
  db.exec('COMMIT');
}

/** A third database: warehouse stock in the EU. */
export function seedInventory(db: Db, random: Random): void {
  db.exec(`
    CREATE TABLE warehouses (code TEXT PRIMARY KEY, city TEXT NOT NULL, country TEXT NOT NULL) WITHOUT ROWID;
    CREATE TABLE stock_levels (
      warehouse TEXT NOT NULL REFERENCES warehouses(code),
      sku TEXT NOT NULL,
      on_hand INTEGER NOT NULL,
      reserved INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (warehouse, sku)
    );
  `);
  db.exec('BEGIN');
  const warehouses: Row[] = [
    ['PRG1', 'Praha', 'CZ'],
    ['BER2', 'Berlin', 'DE'],
    ['MAD1', 'Madrid', 'ES'],
    ['WAW1', 'Warszawa', 'PL'],
    ['OSL1', 'Oslo', 'NO'],
  ];
  insertAll(db, 'INSERT INTO warehouses (code, city, country) VALUES (?, ?, ?)', warehouses);
  const rows: Row[] = [];
  for (const [code] of warehouses) for (let i = 0; i < 60; i++) rows.push([code!, `SKU-${1000 + i * 7}`, random.int(0, 900), random.int(0, 40)]);
  insertAll(db, 'INSERT INTO stock_levels (warehouse, sku, on_hand, reserved) VALUES (?, ?, ?, ?)', rows);
  db.exec('COMMIT');
}

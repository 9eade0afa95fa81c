import http from 'node:http';
import { Counter, Gauge, Registry } from 'prom-client';

/** The shipper's Prometheus metrics (prom-client), per zone, and the endpoint serving them. */
export class ShipMetrics {
  readonly registry = new Registry();
  readonly stored = new Counter({
    name: 'burrow_ship_records_stored_total',
    help: 'Records acknowledged by ClickHouse',
    labelNames: ['zone'],
    registers: [this.registry],
  });
  readonly lag = new Gauge({
    name: 'burrow_ship_lag_seconds',
    help: 'Now minus the newest time read from the platform',
    labelNames: ['zone'],
    registers: [this.registry],
  });
  readonly requests = new Counter({
    name: 'burrow_ship_platform_requests_total',
    help: 'Logging API requests by answer status (0: no answer)',
    labelNames: ['zone', 'status'],
    registers: [this.registry],
  });
  readonly insertErrors = new Counter({
    name: 'burrow_ship_insert_errors_total',
    help: 'Failed ClickHouse inserts (retried)',
    labelNames: ['zone'],
    registers: [this.registry],
  });
  readonly rejected = new Counter({
    name: 'burrow_ship_records_rejected_total',
    help: 'Records ClickHouse refused (data errors), put aside in the <table>_rejected table',
    labelNames: ['zone'],
    registers: [this.registry],
  });
  readonly backlog = new Gauge({
    name: 'burrow_ship_backlog_records',
    help: 'Records read but not yet stored',
    labelNames: ['zone'],
    registers: [this.registry],
  });
  readonly checkpoint = new Gauge({
    name: 'burrow_ship_checkpoint_seconds',
    help: 'The zone checkpoint (epoch seconds)',
    labelNames: ['zone'],
    registers: [this.registry],
  });

  /** Serves /metrics on host:port; resolves with the bound address. */
  async serve(host: string, port: number): Promise<{ server: http.Server; port: number }> {
    const server = http.createServer((req, res) => {
      if (req.url !== '/metrics' && req.url !== '/') {
        res.writeHead(404).end('not found\n');
        return;
      }
      this.registry.metrics().then(
        (text) => res.writeHead(200, { 'Content-Type': this.registry.contentType }).end(text),
        (error: Error) => res.writeHead(500).end(`${error.message}\n`),
      );
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    server.unref();
    return { server, port: (server.address() as { port: number }).port };
  }
}

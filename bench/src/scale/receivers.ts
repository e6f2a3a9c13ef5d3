// Receivers for the scale benchmark: one process listening on `count` consecutive ports from `base`
// (each port its own origin), answering 200 after `delay` ms, counting deliveries by webhook-id and
// arrivals per second.
// Usage: node receivers.ts <base> <count> <delayMs>; GET /stats on any port gives the totals.
import http from 'node:http';

const base = Number(process.argv[2]);
const count = Number(process.argv[3] ?? 1);
const delayMs = Number(process.argv[4] ?? 0);
const seen = new Map<string, number>();
let requests = 0;
let inFlight = 0;
let maxInFlight = 0;
/** Arrivals per epoch second. */
const perSecond = new Map<number, number>();

function handle(req: http.IncomingMessage, res: http.ServerResponse): void {
  if (req.url === '/stats') {
    res.end(
      JSON.stringify({
        requests,
        unique: seen.size,
        duplicates: requests - seen.size,
        maxInFlight,
        perSecond: Object.fromEntries(perSecond),
      }),
    );
    return;
  }
  inFlight++;
  maxInFlight = Math.max(maxInFlight, inFlight);
  req.resume();
  req.on('end', () => {
    requests++;
    const second = Math.floor(Date.now() / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
    const id = req.headers['webhook-id'];
    if (typeof id === 'string') seen.set(id, (seen.get(id) ?? 0) + 1);
    const answer = () => {
      inFlight--;
      res.end('ok');
    };
    if (delayMs > 0) setTimeout(answer, delayMs);
    else answer();
  });
}

let listening = 0;
for (let port = base; port < base + count; port++) {
  const server = http.createServer(handle);
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => {
    if (++listening === count) process.stdout.write(`listening ${count}\n`);
  });
}

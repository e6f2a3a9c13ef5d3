// A webhook receiver that keeps every arrival: when it came (epoch ms, sub-ms), the payload's `due`
// (its scheduled time) and its webhook-id, per path. Paths may answer late: `/slow=1000` answers
// calls to /slow after 1 s; the rest answer 200 at once.
// Usage: node arrivals-receiver.ts <port, 0 for any> [path=delayMs ...]; prints the port it listens on.
// GET /count?path=/x → { requests, unique } (cheap, to wait on); GET /arrivals?path=/x → { requests, unique, duplicates, at: number[], due: (number | null)[] }.
import http from 'node:http';
import { answer, listen } from '../listen.ts';

interface PathLog {
  at: number[];
  due: (number | null)[];
  ids: Set<string>;
}

const port = Number(process.argv[2] ?? 0);
const delays = new Map(
  process.argv.slice(3).map((rule) => {
    const [name, ms] = rule.split('=');
    return [name ?? '', Number(ms)] as const;
  }),
);
const logs = new Map<string, PathLog>();

function logOf(name: string): PathLog {
  let log = logs.get(name);
  if (!log) logs.set(name, (log = { at: [], due: [], ids: new Set() }));
  return log;
}

function dueOf(body: string): number | null {
  try {
    const due = (JSON.parse(body) as { due?: unknown }).due;
    return typeof due === 'number' ? due : null;
  } catch {
    return null;
  }
}

function report(name: string, res: http.ServerResponse): void {
  const log = logOf(name);
  const body = { requests: log.at.length, unique: log.ids.size, duplicates: log.at.length - log.ids.size };
  res.setHeader('content-type', 'application/json');
  res.end(JSON.stringify({ ...body, at: log.at, due: log.due }));
}

const server = http.createServer((req, res) => {
  const at = performance.timeOrigin + performance.now();
  const url = new URL(req.url ?? '/', 'http://receiver');
  if (url.pathname === '/count') {
    const log = logOf(url.searchParams.get('path') ?? '/');
    res.end(JSON.stringify({ requests: log.at.length, unique: log.ids.size }));
    return;
  }
  if (url.pathname === '/arrivals') {
    report(url.searchParams.get('path') ?? '/', res);
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const log = logOf(url.pathname);
    log.at.push(at);
    log.due.push(dueOf(Buffer.concat(chunks).toString()));
    const id = req.headers['webhook-id'];
    if (typeof id === 'string') log.ids.add(id);
    answer(res, delays.get(url.pathname) ?? 0);
  });
});
listen(server, port);

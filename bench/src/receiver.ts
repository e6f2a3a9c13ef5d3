// A webhook receiver for benchmarks: answers 200 (after the `delay` milliseconds its command line
// names, at once by default) and counts deliveries by webhook-id.
import http from 'node:http';
import { answer, listen } from './listen.ts';

const port = Number(process.argv[2] ?? 0);
const delayMs = Number(process.argv[3] ?? 0);
const seen = new Map<string, number>();
let requests = 0;

const server = http.createServer((req, res) => {
  if (req.url === '/stats') {
    const duplicates = requests - seen.size;
    res.end(JSON.stringify({ requests, unique: seen.size, duplicates }));
    return;
  }
  if (req.url === '/reset') {
    seen.clear();
    requests = 0;
    res.end('{}');
    return;
  }
  req.resume();
  req.on('end', () => {
    requests++;
    const id = req.headers['webhook-id'];
    if (typeof id === 'string') seen.set(id, (seen.get(id) ?? 0) + 1);
    answer(res, delayMs);
  });
});
listen(server, port);

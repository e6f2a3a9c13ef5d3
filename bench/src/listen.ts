// What the benchmarks' receiver processes share: answering after a delay, and listening on loopback
// with the port printed on its own line (how processes.ts learns where a receiver is).
import type http from 'node:http';

/** Answers 200 `ok`, after `delayMs` when above zero. */
export function answer(res: http.ServerResponse, delayMs: number): void {
  if (delayMs > 0) setTimeout(() => res.end('ok'), delayMs);
  else res.end('ok');
}

/** Listens on 127.0.0.1:`port` (0: any free port) with long keep-alive, and prints the port. */
export function listen(server: http.Server, port: number): void {
  server.keepAliveTimeout = 60_000;
  server.listen(port, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(`${typeof address === 'object' && address ? address.port : port}\n`);
  });
}

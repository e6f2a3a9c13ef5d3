import type { Dispatcher } from 'undici';
import { BodyCapture, captureHeaders } from './capture.js';
import { type ConnectionUse, resetBeforeRead, whenWritten } from './connection-use.js';

/** What one HTTP exchange produced before it ended, failed or ran out of time. */
export interface ExchangeResult {
  /** null when no response arrived. */
  status: number | null;
  headers: Record<string, string> | null;
  /** The recorded body; null when no response arrived. */
  body: string | null;
  /** What failed (undefined when the response was read to its end or to the read limit). */
  failure: unknown;
  /** The deadline ended the exchange. */
  timedOut: boolean;
  /** `mayStart` refused: no byte of the request was written. */
  notStarted: boolean;
  /** The receiver provably never read the request (see `resetBeforeRead`): it may be sent again. */
  unread: boolean;
}

class ReadLimitReached extends Error {}
class DeadlineExceeded extends Error {}
class StartRefused extends Error {}

/**
 * A raw undici handler rather than `request()`: no body stream, no AbortSignal, one timer — the
 * per-call cost matters at 10,000 calls/s. Settles exactly once.
 */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private readonly capture = new BodyCapture();
  private readonly deadline: NodeJS.Timeout;
  private readonly deadlineAt: number;
  private settled = false;
  private status: number | null = null;
  private headers: Record<string, string> | null = null;
  private connection: ConnectionUse | undefined;

  constructor(
    timeoutMs: number,
    private readonly mayStart: (() => boolean) | undefined,
    private readonly resolve: (result: ExchangeResult) => void,
  ) {
    this.deadlineAt = performance.now() + timeoutMs;
    this.deadline = setTimeout(() => {
      this.expire();
    }, timeoutMs);
  }

  /** Called right before the request is written: the last moment to decide not to send it. */
  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Queued past the deadline (all connections busy), or the process stalled so long that the
    // deadline's timer has not run yet: a request started now could end after its lease.
    if (this.settled || performance.now() >= this.deadlineAt) controller.abort(new DeadlineExceeded());
    else if (this.mayStart && !this.mayStart()) controller.abort(new StartRefused());
    else whenWritten((use) => (this.connection = use));
  }

  onResponseStart(
    _controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: Record<string, string | string[] | undefined>,
  ): void {
    this.status = statusCode;
    this.headers = captureHeaders(headers);
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    // Aborting destroys the socket: the rest of a large response is dropped, never drained.
    if (!this.capture.push(chunk)) controller.abort(new ReadLimitReached());
  }

  onResponseEnd(): void {
    this.settle(undefined, false);
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (error instanceof ReadLimitReached) this.settle(undefined, false);
    else this.settle(error, error instanceof DeadlineExceeded, error instanceof StartRefused);
  }

  private expire(): void {
    if (this.controller === undefined) this.settle(new DeadlineExceeded(), true);
    else this.controller.abort(new DeadlineExceeded());
  }

  private settle(failure: unknown, timedOut: boolean, notStarted = false): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.deadline);
    const { status, headers } = this;
    const body = status === null ? null : this.capture.text();
    const unread = status === null && resetBeforeRead(this.connection, failure);
    this.resolve({ status, headers, body, failure, timedOut, notStarted, unread });
  }
}

/**
 * Runs one request through `dispatcher` under a single deadline covering connect, response headers
 * and the body read; `mayStart`, asked right before the request is written, can still cancel it.
 * Never rejects.
 */
export function exchange(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  timeoutMs: number,
  mayStart?: () => boolean,
): Promise<ExchangeResult> {
  return new Promise((resolve) => {
    const handler = new ExchangeHandler(timeoutMs, mayStart, resolve);
    try {
      dispatcher.dispatch(options, handler);
    } catch (error) {
      handler.onResponseError(undefined, error instanceof Error ? error : new Error(String(error)));
    }
  });
}

import type { Dispatcher } from 'undici';
import { BodyCapture, captureHeaders } from './capture.js';

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
}

class ReadLimitReached extends Error {}
class DeadlineExceeded extends Error {}

/**
 * A raw undici handler rather than `request()`: no body stream, no AbortSignal, one timer — the
 * per-call cost matters at 10,000 calls/s. Settles exactly once.
 */
class ExchangeHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | undefined;
  private readonly capture = new BodyCapture();
  private readonly deadline: NodeJS.Timeout;
  private settled = false;
  private status: number | null = null;
  private headers: Record<string, string> | null = null;

  constructor(
    timeoutMs: number,
    private readonly resolve: (result: ExchangeResult) => void,
  ) {
    this.deadline = setTimeout(() => {
      this.expire();
    }, timeoutMs);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    // Queued past the deadline (all connections busy): the outcome is already recorded.
    if (this.settled) controller.abort(new DeadlineExceeded());
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
    else this.settle(error, error instanceof DeadlineExceeded);
  }

  private expire(): void {
    if (this.controller === undefined) this.settle(new DeadlineExceeded(), true);
    else this.controller.abort(new DeadlineExceeded());
  }

  private settle(failure: unknown, timedOut: boolean): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.deadline);
    const body = this.status === null ? null : this.capture.text();
    this.resolve({ status: this.status, headers: this.headers, body, failure, timedOut });
  }
}

/**
 * Runs one request through `dispatcher` under a single deadline covering connect, response headers
 * and the body read. Never rejects.
 */
export function exchange(
  dispatcher: Dispatcher,
  options: Dispatcher.DispatchOptions,
  timeoutMs: number,
): Promise<ExchangeResult> {
  return new Promise((resolve) => {
    const handler = new ExchangeHandler(timeoutMs, resolve);
    try {
      dispatcher.dispatch(options, handler);
    } catch (error) {
      handler.onResponseError(undefined, error instanceof Error ? error : new Error(String(error)));
    }
  });
}

import diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/** The connection one request went out on, as it was when the request's first byte was written. */
export interface ConnectionUse {
  socket: Socket;
  /** The connection had carried a request before (a kept-alive connection). */
  reused: boolean;
  /** The socket's `bytesRead` then: unchanged at a failure means no byte of a response arrived. */
  bytesRead: number;
}

const requestsOn = new WeakMap<Socket, number>();
let announce: ((use: ConnectionUse) => void) | undefined;
let subscribed = false;

function onSendHeaders(message: unknown): void {
  const socket = (message as { socket?: Socket }).socket;
  const listener = announce;
  announce = undefined;
  if (!listener || !socket) return;
  const count = requestsOn.get(socket) ?? 0;
  requestsOn.set(socket, count + 1);
  listener({ socket, reused: count > 0, bytesRead: socket.bytesRead });
}

/**
 * Tells `listener` which connection the request about to be written uses. Call it from a handler's
 * `onRequestStart`: undici writes that request, and announces its socket on the `sendHeaders`
 * diagnostics channel, synchronously right after it returns, so nothing else can come in between.
 */
export function whenWritten(listener: (use: ConnectionUse) => void): void {
  if (!subscribed) {
    diagnostics.subscribe('undici:client:sendHeaders', onSendHeaders);
    subscribed = true;
  }
  announce = listener;
  // Should undici not write it after all, the listener must not catch another request's socket.
  queueMicrotask(() => {
    if (announce === listener) announce = undefined;
  });
}

const RESET_CODES = new Set(['ECONNRESET', 'EPIPE']);

/**
 * Whether `failure` proves the receiver never read the request: the kept-alive connection was reset
 * (a reset answers bytes that reach a socket its owner has already closed) before any byte of a
 * response came back. A plain close (FIN) proves nothing: the receiver may have read the request.
 */
export function resetBeforeRead(use: ConnectionUse | undefined, failure: unknown): boolean {
  const code = (failure as { code?: unknown } | undefined)?.code;
  return (
    use !== undefined &&
    use.reused &&
    typeof code === 'string' &&
    RESET_CODES.has(code) &&
    use.socket.bytesRead === use.bytesRead
  );
}

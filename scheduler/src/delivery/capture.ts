/** Most response bytes read before the connection is dropped (docs/reference/behaviour.md#response-capture). */
export const MAX_READ_BYTES = 64 * 1024;
/** Most response body bytes kept in the outcome. */
export const MAX_BODY_BYTES = 1024;
/** Most response headers kept in the outcome. */
export const MAX_HEADERS = 50;
/** Most bytes (UTF-8 names plus values) of the response headers kept in the outcome. */
export const MAX_HEADER_BYTES = 8 * 1024;
/** What a `set-cookie` value is recorded as: cookies are credentials of the receiver's users. */
export const REDACTED = '[redacted]';

const decoder = new TextDecoder('utf-8');

/**
 * Response headers as recorded: lowercase names, repeated values joined with ", ", `set-cookie`
 * redacted, the first 50 headers within 8 KB in arrival order (the rest dropped).
 */
export function captureHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  let count = 0;
  let bytes = 0;
  for (const [rawName, rawValue] of Object.entries(raw)) {
    if (rawValue === undefined) continue;
    const name = rawName.toLowerCase();
    const value = name === 'set-cookie' ? REDACTED : Array.isArray(rawValue) ? rawValue.join(', ') : rawValue;
    bytes += Buffer.byteLength(name) + Buffer.byteLength(value);
    if (count === MAX_HEADERS || bytes > MAX_HEADER_BYTES) break;
    kept[name] = value;
    count += 1;
  }
  return kept;
}

/**
 * The first `limit` bytes of `bytes` as text, cut before a character that would be split. Invalid
 * sequences become U+FFFD and NUL (which PostgreSQL text cannot hold) too; either can take more bytes
 * than it replaced, so the text is cut again to stay within `limit` bytes of valid UTF-8.
 */
export function truncateUtf8(bytes: Uint8Array, limit: number): string {
  let end = Math.min(limit, bytes.length);
  // A continuation byte (10xxxxxx) right after the cut means the cut is inside a character:
  // move back to that character's lead byte (a UTF-8 character is at most 4 bytes).
  if (end < bytes.length) {
    while (end > 0 && limit - end < 3 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end -= 1;
  }
  return withinBytes(decoder.decode(bytes.subarray(0, end)).replaceAll('\0', '\uFFFD'), limit);
}

/** `text` cut at a character boundary to at most `limit` bytes of UTF-8. */
function withinBytes(text: string, limit: number): string {
  if (Buffer.byteLength(text) <= limit) return text;
  let bytes = 0;
  let end = 0;
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    if (bytes + size > limit) break;
    bytes += size;
    end += character.length;
  }
  return text.slice(0, end);
}

/**
 * Collects a response body up to {@link MAX_READ_BYTES}, keeping only the bytes the outcome needs
 * (one more than {@link MAX_BODY_BYTES}, so the cut can see the next byte).
 */
export class BodyCapture {
  private readonly chunks: Uint8Array[] = [];
  private kept = 0;
  /** Bytes received so far, kept or not. */
  received = 0;

  /** Adds a chunk; false once {@link MAX_READ_BYTES} are reached and reading must stop. */
  push(chunk: Uint8Array): boolean {
    this.received += chunk.length;
    if (this.kept <= MAX_BODY_BYTES) {
      this.chunks.push(chunk);
      this.kept += chunk.length;
    }
    return this.received < MAX_READ_BYTES;
  }

  /** The recorded body: the first 1024 bytes cut on a UTF-8 boundary ("" for an empty body). */
  text(): string {
    const [first] = this.chunks;
    if (first === undefined) return '';
    const bytes = this.chunks.length === 1 ? first : Buffer.concat(this.chunks);
    return truncateUtf8(bytes, MAX_BODY_BYTES);
  }
}

import { Readable } from 'node:stream';
import type { Pagination } from '@webhook-scheduler/contract';
import type { Response } from 'express';

/**
 * `{ "data": [...], "pagination": {...} }` written as its rows are read, one chunk at a time, with
 * backpressure: a list of large payloads costs the memory of a chunk, not of the page. A failure
 * after the first byte cannot become an error answer any more, so it cuts the connection (the
 * client sees an incomplete body, never a truncated one that parses).
 *
 * Typed as the page it sends: ts-rest pipes a stream body as it is.
 */
export function streamedPage<Row, Dto>(
  chunks: AsyncIterable<Row[]>,
  toDto: (row: Row) => Dto,
  pagination: Pagination,
  res: Response,
): { data: Dto[]; pagination: Pagination } {
  async function* json(): AsyncGenerator<string> {
    yield '{"data":[';
    let first = true;
    for await (const rows of chunks) {
      if (rows.length === 0) continue;
      yield `${first ? '' : ','}${rows.map((row) => JSON.stringify(toDto(row))).join(',')}`;
      first = false;
    }
    yield `],"pagination":${JSON.stringify(pagination)}}`;
  }
  const stream = Readable.from(json(), { objectMode: false });
  stream.once('error', (error) => res.destroy(error));
  return stream as unknown as { data: Dto[]; pagination: Pagination };
}

/**
 * A page read in one statement, answered as one body: for a page that small, streaming costs more
 * CPU than it saves memory.
 */
export async function collectedPage<Row, Dto>(
  chunks: AsyncIterable<Row[]>,
  toDto: (row: Row) => Dto,
  pagination: Pagination,
): Promise<{ data: Dto[]; pagination: Pagination }> {
  const data: Dto[] = [];
  for await (const rows of chunks) for (const row of rows) data.push(toDto(row));
  return { data, pagination };
}

import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { curlCreateEvent } from './snippets.js';

describe('curlCreateEvent', () => {
  const command = curlCreateEvent(
    'http://127.0.0.1:3000',
    'whs_abc',
    "https://example.com/it's?a=1&b=2",
    new Date('2030-01-01T09:00:00.123Z'),
  );

  it('passes the key, the content type and a JSON body as single shell words', () => {
    // `printf '%s\n'` prints each word curl would get, after the shell has parsed the command.
    const words = execFileSync('bash', ['-c', command.replace(/^curl/, "printf '%s\\n'")], {
      encoding: 'utf8',
    })
      .trim()
      .split('\n');
    expect(words).toEqual([
      '-X',
      'POST',
      'http://127.0.0.1:3000/api/v1/events',
      '-H',
      'Authorization: Bearer whs_abc',
      '-H',
      'Content-Type: application/json',
      '-d',
      JSON.stringify({
        webhook_url: "https://example.com/it's?a=1&b=2",
        scheduled_at: '2030-01-01T09:00:00Z',
      }),
    ]);
  });
});

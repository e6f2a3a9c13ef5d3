/** Shell single quotes around anything. */
function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A curl command scheduling a webhook to `webhookUrl` at `scheduledAt`. The time is written out
 * rather than computed with `date`, whose options differ between Linux and macOS.
 */
export function curlCreateEvent(origin: string, key: string, webhookUrl: string, scheduledAt: Date): string {
  const body = JSON.stringify({
    webhook_url: webhookUrl,
    scheduled_at: scheduledAt.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  });
  return [
    `curl -X POST ${origin}/api/v1/events \\`,
    `  -H ${quote(`Authorization: Bearer ${key}`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${quote(body)}`,
  ].join('\n');
}

/**
 * The `host:port` a webhook URL calls, for the calls-per-destination share: the authority
 * lowercased, user info dropped, the scheme's default port omitted. Stored with each event; the
 * database's `webhook_destination()` computes the same for events stored before it was.
 */
export function webhookDestination(url: string): string {
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):/.exec(url)?.[1]?.toLowerCase();
  // eslint-disable-next-line no-control-regex -- the SQL stops at control characters too
  const raw = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/#?\x00-\x1f\x7f]*)/.exec(url)?.[1];
  const authority = raw?.replace(/^.*@/, '').toLowerCase() ?? '';
  if (scheme === 'http' && authority.endsWith(':80')) return authority.slice(0, -3);
  if (scheme === 'https' && authority.endsWith(':443')) return authority.slice(0, -4);
  return authority;
}

/**
 * The secret of a one-time link (an invite, a password reset). It rides in the address's
 * `#fragment`, which browsers never send to a server: it stays out of access logs and Referer.
 */
export function tokenFromHash(hash: string): string {
  const raw = hash.replace(/^#/, '').trim();
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/** The address of an invite on this dashboard. */
export function inviteLink(origin: string, token: string): string {
  return `${origin}/invite#${token}`;
}

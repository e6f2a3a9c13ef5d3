/** Why a one-time link cannot be used: no such link, used once already, or too old. */
export type LinkRefusalReason = 'unknown' | 'used' | 'expired';

/** A stored one-time link (an invite, a password reset) as far as its use is concerned. */
export interface StoredLink {
  usedAt: Date | null;
  expiresAt: Date;
}

/** Why `link` cannot be used at `now`; undefined when it can. A used link says so even once expired. */
export function linkRefusal(link: StoredLink | undefined, now: Date): LinkRefusalReason | undefined {
  if (!link) return 'unknown';
  if (link.usedAt) return 'used';
  return link.expiresAt > now ? undefined : 'expired';
}

const REASONS: Record<LinkRefusalReason, string> = {
  unknown: 'is not valid: check that the whole link was copied, or ask for a new one',
  used: 'was used already: each link works once, so ask for a new one',
  expired: 'has expired: ask for a new one',
};

/** The kinds of one-time link, as people are told about them. */
export type LinkKind = 'invite link' | 'password reset link';

/** What a person is told about a link they cannot use: `This invite link has expired: …`. */
export function linkRefusalMessage(link: LinkKind, reason: LinkRefusalReason): string {
  return `This ${link} ${REASONS[reason]}.`;
}

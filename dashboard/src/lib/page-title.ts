import { useEffect } from 'react';
import { useSession } from '../session.js';

const PRODUCT = 'Webhook Scheduler';

/** `Events · Acme · Webhook Scheduler`: the most specific part first, empty parts left out. */
export function pageTitle(...parts: (string | undefined)[]): string {
  return [...parts.filter((part): part is string => Boolean(part?.trim())), PRODUCT].join(' · ');
}

/**
 * Gives the document the title of the page showing, so tabs and history tell pages apart. A page
 * passes `null` while a component inside it names the page (the not-found state does): a parent's
 * effect runs after its children's and would overwrite their title.
 */
export function useTitle(page: string | null, ...parts: (string | undefined)[]): void {
  const title = page === null ? null : pageTitle(page, ...parts);
  useEffect(() => {
    if (title !== null) document.title = title;
  }, [title]);
}

/** `useTitle` for a page of a team: the team's name comes after the page's. */
export function useTeamTitle(teamId: string, page: string | null): void {
  const team = useSession().session.teams.find((candidate) => candidate.id === teamId);
  useTitle(page, team?.name);
}

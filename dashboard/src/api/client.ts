import { CSRF_HEADER, TEAM_HEADER } from '@webhook-scheduler/contract';
import { type WebhookSchedulerClient, createClient } from '@webhook-scheduler/sdk';
import { useMemo } from 'react';
import { useSession } from '../session.js';

/** The SDK, calling /api/v1 as the signed-in user acting for `teamId`. */
export function useTeamClient(teamId: string): WebhookSchedulerClient {
  const csrf = useSession().session.csrf_token;
  return useMemo(
    () =>
      createClient({
        baseUrl: window.location.origin,
        headers: { [TEAM_HEADER]: teamId, [CSRF_HEADER]: csrf },
        retry: 1,
      }),
    [teamId, csrf],
  );
}

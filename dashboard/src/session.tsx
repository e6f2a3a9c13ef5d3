import type { Session } from '@webhook-scheduler/contract';
import { createContext, useContext } from 'react';

/** The signed-in user's session and what changes it. */
export interface SessionState {
  session: Session;
  /** Re-reads the session (e.g. after a team was created or left). */
  refresh: () => Promise<void>;
  signOut: () => Promise<void>;
}

export const SessionContext = createContext<SessionState | undefined>(undefined);

/** The session of the signed-in part of the app. */
export function useSession(): SessionState {
  const state = useContext(SessionContext);
  if (!state) throw new Error('useSession() is used outside the signed-in app');
  return state;
}

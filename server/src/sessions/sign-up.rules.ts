import type { SignUpMode } from '@webhook-scheduler/contract';

/**
 * Why a sign-up is refused in the service's mode (403 FORBIDDEN), before anything is counted or
 * hashed; undefined when the mode allows it. An invite's own validity is checked after this.
 */
export function signUpRefusal(mode: SignUpMode, withInvite: boolean): string | undefined {
  switch (mode) {
    case 'open':
      return undefined;
    case 'invite':
      return withInvite
        ? undefined
        : 'Sign-up is by invitation only: open the invite link a team owner made for you.';
    case 'closed':
      return 'Sign-up is closed: ask the operator of this service to create your account.';
  }
}

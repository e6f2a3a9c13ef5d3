import type { ReactNode } from 'react';

/** The frame of the pages people see before they are in: sign-in, sign-up, invites, resets. */
export function AuthCard({
  title,
  lead,
  children,
}: {
  title: string;
  lead?: ReactNode;
  children: ReactNode;
}) {
  return (
    <main className="auth">
      <div className="auth-card">
        <div className="auth-brand">
          <img src="/favicon.svg" alt="" width="32" height="32" />
          <span>Webhook Scheduler</span>
        </div>
        <h1>{title}</h1>
        {lead ? <p className="muted">{lead}</p> : null}
        {children}
      </div>
    </main>
  );
}

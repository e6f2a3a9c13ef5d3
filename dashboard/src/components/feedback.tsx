import type { ReactNode } from 'react';
import type { ApiError } from '../api/errors.js';

/** A failed call, in words: the API's message, and the request id to quote when it is a 5xx. */
export function ErrorBanner({ error, title }: { error: ApiError | undefined; title?: string }) {
  if (!error) return null;
  return (
    <div className="banner banner-error" role="alert">
      {title ? <strong>{title} </strong> : null}
      {error.message}
    </div>
  );
}

/** A message that is not an error. */
export function Notice({
  children,
  tone = 'info',
}: {
  children: ReactNode;
  tone?: 'info' | 'success' | 'warning';
}) {
  return (
    <div className={`banner banner-${tone}`} role="status">
      {children}
    </div>
  );
}

/** What a page shows before its data arrives. */
export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" aria-busy="true">
      {label}
    </p>
  );
}

/** A list with nothing in it yet, saying what to do next. */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <section className="empty">
      <h2>{title}</h2>
      <div className="empty-body">{children}</div>
      {action ? <div className="empty-action">{action}</div> : null}
    </section>
  );
}

import type { ApiKey } from '@webhook-scheduler/contract';
import { useCallback } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { formatRelative, formatShort } from '../lib/format.js';
import { useLoad } from '../lib/use-load.js';
import { ConfirmButton } from './confirm-button.js';
import { ErrorBanner, Loading } from './feedback.js';
import { KeyCreator } from './key-creator.js';

function keyState(key: ApiKey): 'revoked' | 'expired' | 'active' {
  if (key.revoked_at) return 'revoked';
  return key.expires_at && Date.parse(key.expires_at) <= Date.now() ? 'expired' : 'active';
}

/** The team's API keys: create one (shown once), see when each was used, revoke (owners). */
export function KeysSection({ teamId, isOwner }: { teamId: string; isOwner: boolean }) {
  const load = useCallback(
    (signal: AbortSignal) =>
      unwrap(dashboardApi.keys.list({ params: { teamId }, fetchOptions: { signal } }), 200),
    [teamId],
  );
  const keys = useLoad(load);
  const revoke = async (key: ApiKey) => {
    await unwrap(dashboardApi.keys.revoke({ params: { teamId, keyId: key.id } }), 200);
    keys.reload();
  };

  return (
    <section className="card" id="keys" aria-labelledby="keys-title">
      <h2 id="keys-title">API keys</h2>
      <p className="muted">
        Your code calls the API with a key: <code>Authorization: Bearer whs_…</code>. A key acts for this team
        only.
      </p>
      {isOwner ? (
        <KeyCreator teamId={teamId} onCreated={keys.reload} />
      ) : (
        <p className="muted small">Only owners can create and revoke keys.</p>
      )}
      <ErrorBanner error={keys.error} />
      {!keys.data ? (
        keys.error ? null : (
          <Loading />
        )
      ) : keys.data.length === 0 ? (
        <p className="muted">
          No keys yet.{' '}
          {isOwner
            ? 'Create one above: it is shown once, with a command that schedules a first webhook with it.'
            : 'Ask an owner to create one.'}
        </p>
      ) : (
        <table className="table keys-table">
          <thead>
            <tr>
              <th>Name</th>
              <th>Key</th>
              <th>Created</th>
              <th>Last used</th>
              <th>Expires</th>
              <th>
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {keys.data.map((key) => {
              const state = keyState(key);
              return (
                <tr key={key.id} data-testid="key-row" data-state={state}>
                  <td data-label="Name">{key.name}</td>
                  <td data-label="Key" className="mono">
                    {key.prefix}…
                  </td>
                  <td data-label="Created">{formatShort(key.created_at)}</td>
                  <td data-label="Last used">
                    {key.last_used_at ? formatRelative(key.last_used_at) : 'never'}
                  </td>
                  <td data-label="Expires">{key.expires_at ? formatShort(key.expires_at) : 'never'}</td>
                  <td className="row-actions">
                    {state === 'active' && isOwner ? (
                      <ConfirmButton
                        small
                        label="Revoke"
                        title={`Revoke “${key.name}”?`}
                        confirmLabel="Revoke key"
                        onConfirm={() => revoke(key)}
                      >
                        <p>
                          Calls with <code>{key.prefix}…</code> are refused from now on (401). This cannot be
                          undone.
                        </p>
                      </ConfirmButton>
                    ) : state === 'active' ? null : (
                      <span className={`badge badge-${state}`}>{state}</span>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </section>
  );
}

import type { SigningSecret } from '@webhook-scheduler/contract';
import { useState } from 'react';
import { dashboardApi, unwrap } from '../api/dashboard.js';
import { type ApiError, toApiError } from '../api/errors.js';
import { formatInstant } from '../lib/format.js';
import { ConfirmButton } from './confirm-button.js';
import { CodeBlock } from './copy-button.js';
import { ErrorBanner } from './feedback.js';

/** The secret receivers verify signatures with: hidden until an owner asks for it; rotated by owners. */
export function SigningSecretSection({ teamId, isOwner }: { teamId: string; isOwner: boolean }) {
  const [secret, setSecret] = useState<SigningSecret>();
  const [error, setError] = useState<ApiError>();
  const reveal = () => {
    setError(undefined);
    unwrap(dashboardApi.signingSecret.get({ params: { teamId } }), 200).then(setSecret, (failure: unknown) =>
      setError(toApiError(failure)),
    );
  };
  const rotate = async () => {
    setSecret(await unwrap(dashboardApi.signingSecret.rotate({ params: { teamId } }), 200));
  };

  return (
    <section className="card" id="signing-secret" aria-labelledby="secret-title">
      <h2 id="secret-title">Signing secret</h2>
      <p className="muted">
        Every webhook carries Standard Webhooks signature headers made with this secret, so your endpoint can
        check the call came from here (<code>verifyWebhook()</code> in the SDK does it).
      </p>
      <ErrorBanner error={error} />
      {secret ? (
        <>
          <CodeBlock code={secret.secret} label="Copy secret" />
          {secret.previous_secret && secret.previous_expires_at ? (
            <p className="muted small">
              The previous secret keeps signing too until {formatInstant(secret.previous_expires_at)}.
            </p>
          ) : null}
        </>
      ) : (
        <p>
          <code className="secret-mask">whsec_••••••••••••••••••••••••</code>{' '}
          {isOwner ? (
            <button type="button" className="btn" onClick={reveal}>
              Reveal
            </button>
          ) : null}
        </p>
      )}
      {isOwner ? (
        <ConfirmButton
          label="Rotate secret"
          title="Rotate the signing secret?"
          confirmLabel="Rotate"
          danger={false}
          onConfirm={rotate}
        >
          <p>
            A new secret signs every webhook from now on. The current one keeps signing alongside it for 24
            hours, so your receivers can switch without rejecting a call.
          </p>
        </ConfirmButton>
      ) : (
        <p className="muted small">Only owners can reveal and rotate it.</p>
      )}
    </section>
  );
}

import type { TeamRole } from '@webhook-scheduler/contract';
import { type ReactNode, type SubmitEvent, useState } from 'react';
import { type ApiError, fieldError, toApiError } from '../api/errors.js';
import { ErrorBanner } from './feedback.js';
import { Field } from './field.js';

/** An email and a role, as adding a member and inviting one ask for; cleared once `send` succeeds. */
export function EmailRoleForm({
  emailLabel,
  hint,
  roleLabel,
  submitLabel,
  send,
}: {
  emailLabel: string;
  hint: ReactNode;
  roleLabel: string;
  submitLabel: string;
  send: (body: { email: string; role: TeamRole }) => Promise<void>;
}) {
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<TeamRole>('member');
  const [error, setError] = useState<ApiError>();
  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    setError(undefined);
    send({ email, role }).then(
      () => setEmail(''),
      (failure: unknown) => setError(toApiError(failure)),
    );
  };
  return (
    <form className="inline-form" onSubmit={submit} noValidate>
      <Field label={emailLabel} error={fieldError(error, 'email')} hint={hint}>
        {(props) => (
          <input {...props} type="email" value={email} onChange={(e) => setEmail(e.target.value)} />
        )}
      </Field>
      <Field label={roleLabel}>
        {(props) => (
          <select {...props} value={role} onChange={(e) => setRole(e.target.value as TeamRole)}>
            <option value="member">member</option>
            <option value="owner">owner</option>
          </select>
        )}
      </Field>
      <button type="submit" className="btn btn-primary">
        {submitLabel}
      </button>
      <ErrorBanner error={error && Object.keys(error.fields).length === 0 ? error : undefined} />
    </form>
  );
}

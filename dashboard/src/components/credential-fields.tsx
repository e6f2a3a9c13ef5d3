import { Field } from './field.js';

/** The email of a sign-in or sign-up form; `fixed` shows one that cannot change (an invite's). */
export function EmailField({
  value,
  onChange,
  error,
  fixed = false,
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  fixed?: boolean;
}) {
  return (
    <Field label="Email" error={error}>
      {(props) => (
        <input
          {...props}
          type="email"
          autoComplete="email"
          required
          readOnly={fixed}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

/** A password field: a new one (sign-up, reset) with its rule, or the current one (sign-in). */
export function PasswordField({
  value,
  onChange,
  error,
  isNew,
  label = 'Password',
}: {
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  isNew: boolean;
  label?: string;
}) {
  return (
    <Field label={label} error={error} {...(isNew ? { hint: 'At least 8 characters.' } : {})}>
      {(props) => (
        <input
          {...props}
          type="password"
          autoComplete={isNew ? 'new-password' : 'current-password'}
          required
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </Field>
  );
}

import { type ReactNode, useRef, useState } from 'react';

/**
 * A button that asks before acting, in a modal dialog. `onConfirm` may reject: its message is
 * shown in the dialog, which stays open.
 */
export function ConfirmButton({
  label,
  title,
  children,
  confirmLabel,
  onConfirm,
  danger = true,
  small = false,
}: {
  label: string;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  onConfirm: () => Promise<void>;
  danger?: boolean;
  small?: boolean;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const confirm = () => {
    setBusy(true);
    setProblem(undefined);
    onConfirm().then(
      () => {
        setBusy(false);
        dialog.current?.close();
      },
      (error: unknown) => {
        setBusy(false);
        setProblem(error instanceof Error ? error.message : 'Something went wrong.');
      },
    );
  };
  const classes = `btn${danger ? ' btn-danger-outline' : ''}${small ? ' btn-small' : ''}`;
  return (
    <>
      <button type="button" className={classes} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} className="dialog" aria-labelledby={undefined}>
        <h2>{title}</h2>
        <div className="dialog-body">{children}</div>
        {problem ? (
          <p className="field-error" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="dialog-actions">
          <button type="button" className="btn" onClick={() => dialog.current?.close()} disabled={busy}>
            Cancel
          </button>
          <button
            type="button"
            className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
            onClick={confirm}
            disabled={busy}
          >
            {busy ? 'Working…' : confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}

/** The "Auto-refresh" switch of a list, with the time its data last arrived. */
export function LiveToggle({
  live,
  onChange,
  updatedAt,
}: {
  live: boolean;
  onChange: (live: boolean) => void;
  updatedAt: Date | undefined;
}) {
  return (
    <label className="check live">
      <input type="checkbox" checked={live} onChange={(e) => onChange(e.target.checked)} />
      Auto-refresh
      {updatedAt ? <span className="muted"> · {updatedAt.toLocaleTimeString('en-GB')}</span> : null}
    </label>
  );
}

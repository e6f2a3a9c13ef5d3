import { useMemo } from 'react';
import { Field } from './field.js';

/** A time zone input that suggests the IANA names the browser knows. */
export function TimeZoneField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone'), []);
  return (
    <Field
      label="Time zone"
      error={error}
      hint="The schedule is read in this zone, daylight saving included. Empty means UTC."
    >
      {(props) => (
        <>
          <input
            {...props}
            list="time-zones"
            placeholder="UTC"
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
          <datalist id="time-zones">
            {zones.map((zone) => (
              <option key={zone} value={zone} />
            ))}
          </datalist>
        </>
      )}
    </Field>
  );
}

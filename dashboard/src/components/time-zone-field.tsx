import { type KeyboardEvent, useId, useMemo, useState } from 'react';
import { matchZones, zoneOptions } from '../lib/time-zones.js';
import { Field } from './field.js';

/**
 * A searchable picker of the IANA zones the browser knows (ARIA combobox with a listbox): typing
 * filters by city or region, arrows move, Enter picks, Escape closes. Free text stays possible, so
 * a zone the browser lacks can still be sent and checked by the API.
 */
export function TimeZoneField({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}) {
  const zones = useMemo(() => zoneOptions(), []);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const listId = useId();
  const matches = useMemo(() => (open ? matchZones(zones, value) : []), [open, zones, value]);
  const pick = (name: string) => {
    onChange(name);
    setOpen(false);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => Math.max(0, Math.min(matches.length - 1, current + step)));
    } else if (event.key === 'Enter' && open && matches[active]) {
      event.preventDefault();
      pick(matches[active].name);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };
  const optionId = (index: number) => `${listId}-${index}`;
  return (
    <Field
      label="Time zone"
      error={error}
      hint="Type a city or region. The schedule is read in this zone, daylight saving included; empty means UTC."
    >
      {(props) => (
        <div className="combobox">
          <input
            {...props}
            role="combobox"
            aria-expanded={open && matches.length > 0}
            aria-controls={listId}
            aria-autocomplete="list"
            {...(open && matches[active] ? { 'aria-activedescendant': optionId(active) } : {})}
            autoComplete="off"
            spellCheck={false}
            placeholder="UTC"
            value={value}
            onChange={(e) => {
              onChange(e.target.value);
              setActive(0);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onBlur={() => setOpen(false)}
            onKeyDown={onKeyDown}
          />
          <ul
            id={listId}
            role="listbox"
            aria-label="Matching zones"
            className="combobox-list"
            hidden={!open || matches.length === 0}
          >
            {matches.map((zone, index) => (
              <li
                key={zone.name}
                id={optionId(index)}
                role="option"
                aria-selected={index === active}
                // Picked on mousedown: a click would come after the input's blur closed the list.
                onMouseDown={(e) => {
                  e.preventDefault();
                  pick(zone.name);
                }}
              >
                <span>{zone.name.replaceAll('_', ' ')}</span>
                <span className="muted small">{zone.offset}</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Field>
  );
}

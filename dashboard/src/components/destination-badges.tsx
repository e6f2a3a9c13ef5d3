import type { Destination } from '@webhook-scheduler/sdk';
import { circuitText } from '../lib/destination-figures.js';

/** The circuit breaker's state as a coloured label, with when an open one probes again. */
export function CircuitBadge({ destination }: { destination: Destination }) {
  const { label, detail } = circuitText(destination);
  return (
    <span className="circuit">
      <span className={`badge badge-circuit-${destination.circuit}`}>{label}</span>
      {detail ? <span className="muted small"> {detail}</span> : null}
    </span>
  );
}

/** A badge saying the team paused its calls to the origin; nothing while it is not. */
export function PausedBadge({ destination }: { destination: Destination }) {
  return destination.paused ? <span className="badge badge-paused">paused</span> : null;
}

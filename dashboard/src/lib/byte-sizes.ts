const integer = new Intl.NumberFormat('en-GB');
const decimal = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 });

const UNITS = ['KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A limit in bytes as it was set: whole KiB, MiB, GiB or TiB when it is a round number of them. */
export function formatLimitBytes(value: number): string {
  let amount = value;
  let unit = 'bytes';
  for (const next of UNITS) {
    if (amount === 0 || amount % 1024 !== 0) break;
    amount /= 1024;
    unit = next;
  }
  return `${integer.format(amount)} ${unit}`;
}

/** A use in bytes, in the largest unit it fills, to one decimal. */
export function formatUsedBytes(value: number): string {
  let amount = value;
  let unit = 'bytes';
  for (const next of UNITS) {
    if (amount < 1024) break;
    amount /= 1024;
    unit = next;
  }
  return `${unit === 'bytes' ? integer.format(amount) : decimal.format(amount)} ${unit}`;
}

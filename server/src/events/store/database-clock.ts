/**
 * The database clock read once per statement. `clock_timestamp()` itself is volatile, so a
 * condition on it is evaluated row by row and can neither bound an index scan nor skip a scan
 * whose answer it decides: `scheduled_at <= clock_timestamp()` reads every pending event, future
 * ones included, where `scheduled_at <= ${DATABASE_NOW}` stops at the first one not due.
 */
export const DATABASE_NOW = '(select clock_timestamp())';

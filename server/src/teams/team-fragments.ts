/**
 * SQL fragments of `teams` for statements other owners compose (CONTRIBUTING.md, "One owner per
 * table"): the team of a row, and what a call needs of it.
 */

/** Joins the team whose id is `teamId` as `alias`. */
export const joinTeam = (alias: string, teamId: string): string =>
  `join teams ${alias} on ${alias}.id = ${teamId}`;

/**
 * What a call needs of the team `alias`: its secrets (the previous one signs too until its rotation
 * grace period ends) and whether it wants the attempt's traceparent sent.
 */
export const callColumns = (alias: string): string => `${alias}.signing_secret, ${alias}.send_traceparent,
  case when ${alias}.previous_secret_expires_at > clock_timestamp() then ${alias}.previous_signing_secret end as previous_signing_secret`;

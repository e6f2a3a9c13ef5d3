/** `1 retry`, `3 retries`, `0 keys`: a count and its noun, agreeing. */
export function countOf(count: number, singular: string, plural = `${singular}s`): string {
  return `${count} ${count === 1 ? singular : plural}`;
}

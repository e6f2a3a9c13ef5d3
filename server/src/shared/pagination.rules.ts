/** A page past the last item; page 0 is never out of range (an empty list is an empty page). */
export function isPageOutOfRange(page: number, limit: number, total: number): boolean {
  return page > 0 && page * limit >= total;
}

export function outOfRangeMessage(page: number, limit: number, total: number): string {
  return `Page ${page} is out of range: there are ${total} items, ${limit} per page`;
}

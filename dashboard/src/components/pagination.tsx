import type { Pagination as Page } from '@webhook-scheduler/sdk';

/** "21–40 of 57" with previous and next buttons. */
export function Pagination({ pagination, onPage }: { pagination: Page; onPage: (page: number) => void }) {
  const { page, limit, total } = pagination;
  if (total <= limit && page === 0) return null;
  const first = page * limit + 1;
  const last = Math.min(total, (page + 1) * limit);
  return (
    <nav className="pagination" aria-label="Pages">
      <span>
        {first}–{last} of {total}
      </span>
      <button type="button" className="btn btn-small" disabled={page === 0} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <button
        type="button"
        className="btn btn-small"
        disabled={last >= total}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}

/** The largest `page_size` (docs/contract.md §2 "Pagination"). */
export const MAX_PAGE_SIZE = 1000;
/** Rendered pages kept with each kept answer (http/renderedPages.ts); the result cache weighs them. */
export const RENDERED_PAGES_PER_ANSWER = 2;

export interface Pagination {
  page: number;
  page_size: number;
  total_rows: number;
  total_pages: number;
  count: number;
}

/**
 * Which of `total` rows page `page` shows, [from, to), and its pagination object. docs/contract.md §2
 * "Pagination": a page past the end is empty, not an error.
 */
export function pageRange(
  total: number,
  page: number,
  pageSize: number,
): { from: number; to: number; pagination: Pagination } {
  const from = Math.min((page - 1) * pageSize, total);
  const to = Math.min(page * pageSize, total);
  return {
    from,
    to,
    pagination: {
      page,
      page_size: pageSize,
      total_rows: total,
      total_pages: Math.ceil(total / pageSize),
      count: to - from,
    },
  };
}

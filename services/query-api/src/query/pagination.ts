export interface Pagination {
  page: number;
  page_size: number;
  total_rows: number;
  total_pages: number;
  count: number;
}

/** CONTRACT §2 "Pagination": a page past the end is empty, not an error. */
export function paginate<T>(
  rows: readonly T[],
  page: number,
  pageSize: number,
): { items: T[]; pagination: Pagination } {
  const items = rows.slice((page - 1) * pageSize, page * pageSize);
  return {
    items,
    pagination: {
      page,
      page_size: pageSize,
      total_rows: rows.length,
      total_pages: Math.ceil(rows.length / pageSize),
      count: items.length,
    },
  };
}

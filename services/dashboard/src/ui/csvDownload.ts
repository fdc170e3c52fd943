import type { ApiClient } from "../api/client";
import type { StatsQuery } from "../api/types";

/** The most rows one CSV page carries (the API's page_size maximum). */
export const CSV_PAGE_SIZE = 1000;

/**
 * The current view as the API's CSV (format=csv), every page: the first page is kept whole and
 * each next page (the page its Link rel="next" names) without its header row. The header is a fixed line of
 * column names, so it ends at the first line break; cells are never re-parsed or re-quoted.
 */
export async function downloadCsv(api: ApiClient, firstPage: StatsQuery): Promise<string> {
  const first = await api.csv(firstPage);
  const parts = [first.text];
  for (let next = first.nextPage; next !== null; ) {
    const page = await api.csv({ ...firstPage, page: next });
    parts.push(page.text.slice(page.text.indexOf("\n") + 1));
    next = page.nextPage;
  }
  const url = URL.createObjectURL(new Blob(parts, { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = first.filename;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has the file once the click is handled; free the blob after it started.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return first.filename;
}

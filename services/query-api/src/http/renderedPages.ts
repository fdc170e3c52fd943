import { RENDERED_PAGES_PER_ANSWER } from "../query/pagination";
import { keepEncodings } from "./encodedBodies";

export interface RenderedPages {
  /**
   * The body of one page of `answer` (a kept answer's identity: the same object while it is kept,
   * a new one once it is computed again), rendered once and then reused.
   */
  body(answer: object, page: string, render: () => string): Buffer;
}

/**
 * Rendering is most of what a kept answer still costs (docs/decisions/0010-exact-result-cache.md),
 * so the last pages rendered from each kept answer are kept with it: in a WeakMap, so they go
 * when the answer goes (the result cache counts them in the answer's weight). A compressed form
 * is a small part of its page, so it is kept with the page without being weighed apart.
 */
export function createRenderedPages(): RenderedPages {
  // Bytes, not strings: a kept page is not encoded to UTF-8 again for every response.
  const pages = new WeakMap<object, Map<string, Buffer>>();
  return {
    body(answer, page, render) {
      let rendered = pages.get(answer);
      const known = rendered?.get(page);
      if (known !== undefined) return known;
      const body = Buffer.from(render());
      // Its gzip and brotli forms are kept with it as clients ask for them (responseCompression.ts).
      keepEncodings(body);
      if (rendered === undefined) {
        rendered = new Map();
        pages.set(answer, rendered);
      }
      for (const oldest of rendered.keys()) {
        if (rendered.size < RENDERED_PAGES_PER_ANSWER) break;
        rendered.delete(oldest);
      }
      rendered.set(page, body);
      return body;
    },
  };
}

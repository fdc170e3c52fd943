/** One source's next item in the heap. */
interface Head<T> {
  item: T;
  at: number;
  source: number;
  rest: Iterator<T>;
}

/**
 * A k-way merge: the items of every source (each already in non-decreasing `at` order) as one
 * stream in non-decreasing `at` order, through a binary min-heap holding one item per source. Ties
 * go to the source listed first, so the order is fully determined by the sources. Lazy: a source
 * is first read when the merge is first read, then one item at a time.
 *
 * Throws if a source goes back in time, since the merged order would then be wrong silently.
 */
export function* mergeSorted<T>(
  sources: Iterable<Iterable<T>>,
  at: (item: T) => number,
): Generator<T, void, undefined> {
  const heap: Head<T>[] = [];
  let source = 0;
  for (const iterable of sources) {
    const rest = iterable[Symbol.iterator]();
    const first = rest.next();
    if (!first.done) push(heap, { item: first.value, at: at(first.value), source, rest });
    source++;
  }
  for (let top = heap[0]; top !== undefined; top = heap[0]) {
    yield top.item;
    const next = top.rest.next();
    if (next.done) {
      const last = heap.pop();
      if (last === undefined || heap.length === 0) continue;
      heap[0] = last;
    } else {
      const nextAt = at(next.value);
      if (nextAt < top.at) {
        throw new RangeError(`source ${top.source} is not in order: ${nextAt} after ${top.at}`);
      }
      top.item = next.value;
      top.at = nextAt;
    }
    siftDown(heap, 0);
  }
}

function before<T>(a: Head<T>, b: Head<T>): boolean {
  return a.at < b.at || (a.at === b.at && a.source < b.source);
}

function push<T>(heap: Head<T>[], head: Head<T>): void {
  heap.push(head);
  let i = heap.length - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    const above = heap[parent];
    if (above === undefined || !before(head, above)) break;
    heap[i] = above;
    i = parent;
  }
  heap[i] = head;
}

function siftDown<T>(heap: Head<T>[], start: number): void {
  const head = heap[start];
  if (head === undefined) return;
  let i = start;
  for (;;) {
    const left = 2 * i + 1;
    const right = left + 1;
    let child = left;
    const l = heap[left];
    const r = heap[right];
    if (l === undefined) break;
    if (r !== undefined && before(r, l)) child = right;
    const smaller = heap[child];
    if (smaller === undefined || !before(smaller, head)) break;
    heap[i] = smaller;
    i = child;
  }
  heap[i] = head;
}

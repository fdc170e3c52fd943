/**
 * Orders strings by their UTF-8 bytes (= by code point), the order docs/contract.md §2 fixes for
 * dimension values. JavaScript's default sort compares UTF-16 units, which differs for characters
 * beyond U+FFFF.
 */
export function compareByteOrder(a: string, b: string): number {
  if (a === b) return 0;
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    const x = a.codePointAt(i) ?? 0;
    const y = b.codePointAt(i) ?? 0;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

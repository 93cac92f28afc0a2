/** Counting what a reader sees as one character (Unicode extended grapheme clusters, UAX #29). */

// Made on first use: constructing it costs about 2.5 ms, which every cold start paid.
let segmenter: Intl.Segmenter | undefined;
const graphemeSegmenter = () => (segmenter ??= new Intl.Segmenter("en", { granularity: "grapheme" }));

/** User-perceived characters: an emoji, a flag or a letter with its accents counts as one. */
export function graphemes(text: string): string[] {
  return Array.from(graphemeSegmenter().segment(text), (segment) => segment.segment);
}

export function graphemeCount(text: string): number {
  let count = 0;
  for (const _ of graphemeSegmenter().segment(text)) count++;
  return count;
}

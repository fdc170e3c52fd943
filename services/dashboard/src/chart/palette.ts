/**
 * Okabe & Ito's palette (2008), chosen to stay distinct under the common colour-vision
 * deficiencies; ordered so neighbours in a stack differ in lightness too. Black is left out: it is
 * the text colour. Groups past the palette are summed as "Other", drawn in grey.
 */
export const SERIES_COLOURS = [
  "#0072B2", // blue
  "#E69F00", // orange
  "#009E73", // bluish green
  "#D55E00", // vermillion
  "#56B4E9", // sky blue
  "#CC79A7", // reddish purple
  "#F0E442", // yellow
] as const;

export const OTHER_COLOUR = "#8C8C8C";

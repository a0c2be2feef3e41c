/**
 * How a confusion matrix is drawn for its number of classes. Two or three classes have room for large
 * numbers; with dozens the cells are small, so the numbers shrink, zeros are left blank (a "0" next to
 * "155" read as "1550"), and the chart takes the full width of the page.
 */
export interface ConfusionLayout {
  /** Font size of the count in each cell. */
  cellFontSize: number;
  /** Whether a cell counting 0 shows its number; blank cells read as empty, which they are. */
  showZeros: boolean;
  /** Chart height in pixels. */
  height: number;
  /** Whether the chart spans the whole results grid rather than one column of it. */
  wide: boolean;
  /** Rotation of the predicted-class names, in degrees, so long names do not run into each other. */
  xLabelRotate: number;
  /** Width the actual-class names may take, in pixels; longer names are cut. */
  yLabelWidth: number;
}

/** Many classes: above this the matrix is drawn small and wide. */
const MANY = 10;
// A generous width of one character of the axis labels (12 px sans-serif), so short names are never cut.
const CHAR_PX = 8;

export function confusionLayout(classes: string[]): ConfusionLayout {
  const n = classes.length;
  const longest = Math.max(1, ...classes.map((c) => c.length));
  const many = n > MANY;
  return {
    cellFontSize: n <= 4 ? 14 : many ? 10 : 12,
    showZeros: !many,
    height: many ? 28 * n + 140 : Math.max(260, 60 * n + 100),
    wide: many,
    xLabelRotate: n > 4 && longest * CHAR_PX > (many ? 30 : 70) ? 45 : 0,
    yLabelWidth: Math.min(120, longest * CHAR_PX + 12),
  };
}

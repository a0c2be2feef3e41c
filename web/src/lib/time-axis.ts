/**
 * The time axis of the dashboard's charts. Their times are the data's own dates as UTC instants (a
 * daily series' 2021-01-05 is 2021-01-05T00:00Z), while ECharts lays ticks out in the browser's time
 * zone unless told otherwise: in Chicago a daily series got its ticks at 06:00, between its points,
 * and zoomed in on a few days, ticks at 06:00, 12:00 and 18:00 of days that have one value each.
 * Charts with this axis work in UTC, never tick finer than the data's own step, and label each tick
 * as the date (or, for data finer than a day, the time) it is.
 */

const DAY = 86_400_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** The smallest gap between consecutive distinct times (monthly data: 28 days), or undefined for fewer than two. */
export function dataStep(times: readonly number[]): number | undefined {
  const sorted = [...new Set(times.filter(Number.isFinite))].sort((a, b) => a - b);
  let step = Infinity;
  for (let i = 1; i < sorted.length; i++) step = Math.min(step, sorted[i]! - sorted[i - 1]!);
  return Number.isFinite(step) ? step : undefined;
}

/**
 * A tick's label: a year at its first day, a month at its first, a day as "5 Jan", a time of day as
 * "06:00". The first label also carries the year, so a series inside one year still says which.
 */
export function timeTickLabel(value: number, index: number): string {
  const d = new Date(value);
  const year = String(d.getUTCFullYear());
  const month = MONTHS[d.getUTCMonth()]!;
  const midnight = d.getUTCHours() === 0 && d.getUTCMinutes() === 0;
  const withYear = (s: string) => (index === 0 ? `${s} ${year}` : s);
  if (!midnight) return `${String(d.getUTCHours()).padStart(2, '0')}:${String(d.getUTCMinutes()).padStart(2, '0')}`;
  if (d.getUTCDate() === 1 && d.getUTCMonth() === 0) return year;
  if (d.getUTCDate() === 1) return withYear(month);
  return withYear(`${d.getUTCDate()} ${month}`);
}

/** The root option (`useUTC`) and x axis of a chart of values over `times` (epoch ms). */
export function timeAxisOption(times: readonly number[]) {
  const step = dataStep(times);
  return {
    useUTC: true,
    xAxis: {
      type: 'time' as const,
      // Months are 28 to 31 days long: the smallest gap of monthly data keeps the ticks on months.
      ...(step !== undefined ? { minInterval: Math.min(step, 365 * DAY) } : {}),
      // The first label carries the year: shown before any label it would overlap.
      axisLabel: { hideOverlap: true, showMinLabel: true, formatter: timeTickLabel },
    },
  };
}

/**
 * Calendars a view can join: the original service's global holiday data sets
 * (`Nexosis.Holidays-<country>`, optionally `-<region>`), taken from `date-holidays`, and iCalendar
 * files by URL (fetched through the outbound guard).
 */
import Holidays from 'date-holidays';
import { openDownload } from '../../outbound/index.js';
import { ValidationError } from '../errors.js';

export interface CalendarEvent {
  /** The event's day, YYYY-MM-DD. */
  day: string;
  name: string;
}

const HOLIDAY_CALENDAR = /^Nexosis\.Holidays-([A-Za-z]{2})(?:-([A-Za-z0-9]{1,3}))?$/;

/** The country (and region) of a named holiday calendar; a 400 naming the problem when there is none. */
export function holidayCalendar(name: string): { country: string; region?: string } {
  const m = HOLIDAY_CALENDAR.exec(name);
  if (!m) throw ValidationError.of('calendar', `Unknown calendar '${name}'. Named calendars are Nexosis.Holidays-<ISO 3166 country code>, e.g. Nexosis.Holidays-US.`);
  const country = m[1]!.toUpperCase();
  const countries = new Holidays().getCountries();
  if (!(country in countries)) throw ValidationError.of('calendar', `There is no holiday calendar for the country '${country}'.`);
  const region = m[2]?.toUpperCase();
  if (region && !(region in (new Holidays().getStates(country) ?? {}))) {
    throw ValidationError.of('calendar', `There is no holiday calendar for the region '${region}' of '${country}'.`);
  }
  return region ? { country, region } : { country };
}

/** Public holidays of a named calendar in the given years (observed days included, as the library dates them). */
export function holidayEvents(name: string, fromYear: number, toYear: number): CalendarEvent[] {
  const { country, region } = holidayCalendar(name);
  const hd = region ? new Holidays(country, region) : new Holidays(country);
  const out: CalendarEvent[] = [];
  for (let y = fromYear; y <= toYear; y++) {
    for (const h of hd.getHolidays(y) || []) {
      if (h.type === 'public') out.push({ day: h.date.slice(0, 10), name: h.name });
    }
  }
  return out;
}

/**
 * Events of an iCalendar text: each VEVENT's SUMMARY on the day of its DTSTART. All-day dates are
 * taken as they are; date-times in UTC (`Z`) are moved into `timeZone` (an IANA name) when given.
 */
export function parseIcs(text: string, timeZone?: string): CalendarEvent[] {
  // Unfold continuation lines (RFC 5545 §3.1).
  const lines = text.replace(/\r\n/g, '\n').replace(/\n[ \t]/g, '').split('\n');
  const out: CalendarEvent[] = [];
  let inEvent = false;
  let start: string | undefined;
  let summary: string | undefined;
  for (const line of lines) {
    if (line === 'BEGIN:VEVENT') { inEvent = true; start = undefined; summary = undefined; continue; }
    if (line === 'END:VEVENT') {
      if (inEvent && start) out.push({ day: start, name: summary ?? '' });
      inEvent = false;
      continue;
    }
    if (!inEvent) continue;
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const key = line.slice(0, colon).split(';')[0]!.toUpperCase();
    const value = line.slice(colon + 1);
    if (key === 'DTSTART') start = icsDay(value, timeZone);
    else if (key === 'SUMMARY') summary = value.replace(/\\([,;\\])/g, '$1').replace(/\\n/gi, ' ').trim();
  }
  return out;
}

function icsDay(value: string, timeZone?: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value.trim());
  if (!m) return undefined;
  const day = `${m[1]}-${m[2]}-${m[3]}`;
  if (!m[4] || !m[7] || !timeZone) return day;
  const at = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4], +m[5]!, +m[6]!));
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}

export function assertTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat('en-CA', { timeZone });
  } catch {
    throw ValidationError.of('timeZone', `'${timeZone}' is not a time zone (use an IANA name such as America/New_York).`);
  }
}

const MAX_CALENDAR_BYTES = 5 * 1024 * 1024;

/** Fetches and parses an iCalendar file (the same outbound rules as URL imports). */
export async function fetchIcs(url: string, opts: { allowHosts: Set<string>; timeoutMs: number; timeZone?: string }): Promise<CalendarEvent[]> {
  const download = await openDownload(url, { allowHosts: opts.allowHosts, maxBytes: MAX_CALENDAR_BYTES, timeoutMs: opts.timeoutMs });
  const chunks: Buffer[] = [];
  for await (const c of download.stream) chunks.push(c as Buffer);
  return parseIcs(Buffer.concat(chunks).toString('utf8'), opts.timeZone);
}

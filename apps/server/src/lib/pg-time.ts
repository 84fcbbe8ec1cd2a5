/** Dates written as PostgreSQL reads them, past year 9999 too (where toISOString gives `+010000-…`). */

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** `YYYY-MM-DD` of a UTC day, as a PostgreSQL `date` reads it. */
export function utcDay(date: Date): string {
  return `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1, 2)}-${pad(date.getUTCDate(), 2)}`;
}

/** A UTC timestamp as PostgreSQL's `timestamptz` reads it. */
export function utcTimestamp(date: Date): string {
  const time = `${pad(date.getUTCHours(), 2)}:${pad(date.getUTCMinutes(), 2)}:${pad(date.getUTCSeconds(), 2)}.${pad(date.getUTCMilliseconds(), 3)}`;
  return `${utcDay(date)} ${time}+00`;
}

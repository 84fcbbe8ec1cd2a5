/** Display formats shared by the dashboard (design.md: thousands separators, USD with two decimals, relative times). */

const integer = new Intl.NumberFormat('en-US');
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const formatNumber = (value: number) => integer.format(value);
/** A count with its noun, singular for 1: `1 token`, `1,204 tokens`. */
export const formatCount = (value: number, noun: string) => `${integer.format(value)} ${value === 1 ? noun : `${noun}s`}`;
export const formatCompact = (value: number) => compact.format(value);
export const formatUsd = (dollars: number) => usd.format(dollars);
/** USD micro-units (1 USD = 1,000,000), shown with two decimals (or "<$0.01" for tiny non-zero costs). */
export const formatMicros = (micros: number) => (micros > 0 && micros < 5_000 ? '<$0.01' : usd.format(micros / 1_000_000));
export const formatCents = (cents: number) => usd.format(cents / 100);

export function formatPercent(ratio: number, digits = 1): string {
  return `${(ratio * 100).toFixed(digits)}%`;
}

/**
 * A success rate: never 100% while anything failed (1 error in 10,000 reads 99.9%, rounded down,
 * not 100.0%), nor 0% while anything succeeded.
 */
export function formatSuccessRate(ratio: number, digits = 1): string {
  const scale = 10 ** digits;
  const percent = ratio * 100;
  const shown = ratio < 1 ? Math.min(percent, 100 - 1 / scale) : percent;
  return `${(ratio > 0 ? Math.max(shown, 1 / scale) : shown).toFixed(digits)}%`;
}

export function formatLatency(ms: number): string {
  return ms >= 1000 ? `${(ms / 1000).toFixed(2)}s` : `${Math.round(ms)} ms`;
}

export function formatDate(iso: string, options: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric' }): string {
  return new Date(iso).toLocaleDateString(undefined, options);
}

/**
 * A calendar day kept in UTC (billing periods, dated posts): shown as that day wherever the
 * reader is (a local-time rendering shows 31 May for 1 June west of Greenwich).
 */
export function formatUtcDate(iso: string): string {
  return formatDate(iso, { year: 'numeric', month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** The last UTC day of a period that ends (exclusive) at `endIso`. */
export function formatLastDay(endIso: string): string {
  return formatUtcDate(new Date(Date.parse(endIso) - 1).toISOString());
}

export function formatDateTime(iso: string): string {
  return new Date(iso).toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });
const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['second', 60],
  ['minute', 60],
  ['hour', 24],
  ['day', 30],
  ['month', 12],
  ['year', Number.POSITIVE_INFINITY],
];

/** '3 min. ago', 'yesterday', 'in 2 days'. */
export function formatRelative(iso: string, now = Date.now()): string {
  let value = (new Date(iso).getTime() - now) / 1000;
  if (Math.abs(value) < 45) return 'just now';
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return formatDate(iso);
}

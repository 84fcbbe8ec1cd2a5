import { MESSAGES } from '@conductor/shared';
import { dictionary } from '@zxcvbn-ts/language-common';

/**
 * The bundled list of common passwords: zxcvbn's frequency-ranked list (~49k leaked
 * passwords), shipped in an npm package so the check works offline.
 */
const RANKED: readonly string[] = dictionary['passwords-common'] ?? [];
const COMMON = new Set(RANKED.map((entry) => entry.toLowerCase()));
/** Only the very top of the list counts as a base word that a short suffix does not rescue. */
const TOP_BASE_WORDS = new Set(RANKED.slice(0, 1_000).filter((entry) => entry.length >= 4 && /[a-z]/i.test(entry)));

const LEET: Record<string, string> = { '@': 'a', '4': 'a', '0': 'o', '1': 'l', '3': 'e', $: 's', '5': 's', '!': 'i', '7': 't' };

function unleet(value: string): string {
  return value.replace(/[@40135$!7]/g, (character) => LEET[character] ?? character);
}

/**
 * True for very common passwords, whatever the capitalisation the form rules force
 * ("Password1"), with common character substitutions ("P@ssw0rd") or with a short
 * suffix on one of the most common words ("Qwerty2024!").
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  if (COMMON.has(lower) || COMMON.has(unleet(lower))) return true;
  const base = lower.replace(/[\d\W_]{1,5}$/, '');
  return base !== lower && (TOP_BASE_WORDS.has(base) || TOP_BASE_WORDS.has(unleet(base)));
}

export const COMMON_PASSWORD_MESSAGE = MESSAGES.register.commonPassword;

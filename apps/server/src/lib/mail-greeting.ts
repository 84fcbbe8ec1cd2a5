/**
 * The first line of a mail to an account's address. The name is whatever the sign-up form
 * received, so until the address is confirmed it may have been typed by a stranger who used
 * someone else's address: mail to an unconfirmed address does not repeat it (the contact and
 * ticket confirmations follow the same rule for what a sender typed).
 */
export function mailGreeting(name: string, addressConfirmed: boolean): string {
  return addressConfirmed ? `Hi ${name},` : 'Hello,';
}

import { isIP } from 'node:net';

/**
 * `localhost`, `127.0.0.0/8` or `::1` (bracketed as in a URL's hostname, or IPv4-mapped, as a
 * socket reports it): only this machine reaches such an address. The one test for the server's
 * HOST, link origins, SSO and upstream endpoints allowed over http, and local metrics scrapers.
 */
export function isLoopbackHost(host: string): boolean {
  const address = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (address === 'localhost' || address === '::1') return true;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  if (isIP(v4) === 4) return v4.startsWith('127.');
  // A URL writes an IPv4-mapped address in hex (`[::ffff:7f00:1]`): its first group is 127's.
  return /^::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}$/.test(address);
}

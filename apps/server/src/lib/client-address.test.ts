import { describe, expect, it } from 'vitest';
import { addressBucket } from './client-address.ts';

describe('addressBucket', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['::ffff:cb00:7107', '203.0.113.7'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['2001:0db8:0000:0000:1234:5678:9abc:def0', '2001:db8:0:0::/64'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b::192.0.2.33', '64:ff9b:0:0::/64'],
    [undefined, 'unknown'],
    ['', 'unknown'],
  ])('counts %s as %s', (address, bucket) => {
    expect(addressBucket(address)).toBe(bucket);
  });
});

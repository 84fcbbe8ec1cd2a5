import { describe, expect, it } from 'vitest';
import { isLoopbackHost } from './loopback.ts';

describe('isLoopbackHost', () => {
  it('knows the loopback addresses, as written in config, URLs and socket addresses', () => {
    const loopback = ['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1', '[::ffff:7f00:1]'];
    for (const host of loopback) expect(isLoopbackHost(host), host).toBe(true);
    const elsewhere = [
      '0.0.0.0',
      '::',
      '10.0.0.1',
      '128.0.0.1',
      'localhost.example',
      '127.0.0.1.nip.io',
      '::ffff:10.0.0.1',
      '[::ffff:a00:1]',
      '[::2]',
      '',
    ];
    for (const host of elsewhere) expect(isLoopbackHost(host), host).toBe(false);
  });

  it('agrees with the hostname URL parsing gives', () => {
    for (const [url, expected] of [
      ['http://127.0.0.1:8080/x', true],
      ['http://[::1]:3000', true],
      ['http://[::ffff:127.0.0.1]/', true],
      ['http://localhost./', false],
      ['http://0x7f.0.0.1/', true],
      ['https://api.openai.com/v1', false],
    ] as const)
      expect(isLoopbackHost(new URL(url).hostname), url).toBe(expected);
  });
});

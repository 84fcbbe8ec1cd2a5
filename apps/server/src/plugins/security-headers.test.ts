import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicyFor } from './security-headers.ts';

describe('contentSecurityPolicyFor', () => {
  it('allows exactly the inline scripts of the page by hash', () => {
    const inline = 'window.__x = 1;';
    const html = `<html><head><script src="/assets/a.js"></script><script>${inline}</script><script type="module">import "/b.js";</script></head></html>`;
    const policy = contentSecurityPolicyFor(html);
    const expected = createHash('sha256').update(inline).digest('base64');
    expect(policy).toContain(`'sha256-${expected}'`);
    expect(policy.match(/sha256-/g)).toHaveLength(2);
    expect(policy).not.toContain("'unsafe-inline' 'sha256");
    expect(policy).toMatch(/script-src 'self' 'sha256-/);
    for (const directive of ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'"]) expect(policy).toContain(directive);
  });
});

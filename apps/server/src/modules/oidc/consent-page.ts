/** The demo issuer's pages: plain HTML with no script and no third-party request. */

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

const STYLE = `
:root{color-scheme:light dark;--bg:#f7f7fb;--fg:#1c1d2b;--muted:#5c5f73;--card:#fff;--border:#e3e4ee;--primary:#4f46e5;--on-primary:#fff;--ring:#6366f1}
@media (prefers-color-scheme:dark){:root{--bg:#14151f;--fg:#f1f1f6;--muted:#a9abbd;--card:#1b1c29;--border:#2d2f42;--primary:#8b8cf6;--on-primary:#14151f;--ring:#a5a6ff}}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;padding:16px;
font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:var(--bg);color:var(--fg)}
main{width:100%;max-width:420px;background:var(--card);border:1px solid var(--border);border-radius:14px;padding:28px;box-shadow:0 1px 3px rgba(0,0,0,.06)}
.badge{display:inline-block;font-size:12px;font-weight:600;letter-spacing:.02em;color:var(--primary);border:1px solid var(--border);border-radius:999px;padding:2px 10px}
h1{font-size:22px;margin:14px 0 6px}p{margin:0 0 14px;color:var(--muted)}
.who{display:flex;gap:12px;align-items:center;border:1px solid var(--border);border-radius:10px;padding:12px;margin:18px 0}
.avatar{width:40px;height:40px;border-radius:50%;background:var(--primary);color:var(--on-primary);display:flex;align-items:center;justify-content:center;font-weight:700}
.who strong{display:block}.who span{font-size:14px;color:var(--muted);overflow-wrap:anywhere}
ul{margin:0 0 18px;padding-left:20px;color:var(--muted);font-size:14px}
.actions{display:flex;gap:10px;flex-wrap:wrap}form{margin:0}
button{font:inherit;font-weight:600;border-radius:8px;padding:10px 16px;cursor:pointer;border:1px solid var(--border);background:transparent;color:var(--fg)}
button.primary{background:var(--primary);border-color:var(--primary);color:var(--on-primary)}
button:focus-visible{outline:2px solid var(--ring);outline-offset:2px}
`;

function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>${escapeHtml(title)} · Conductor Demo OIDC</title><style>${STYLE}</style></head>
<body><main>${body}</main></body></html>`;
}

const SCOPE_LABELS: Record<string, string> = {
  openid: 'Sign you in with your demo identity',
  profile: 'Your name',
  email: 'Your email address',
};

export function consentPage(input: {
  uid: string;
  mountPath: string;
  clientName: string;
  identity: { name: string; email: string } | null;
  scopes: string[];
}): string {
  const who = input.identity
    ? `<div class="who"><div class="avatar" aria-hidden="true">D</div><div><strong>${escapeHtml(input.identity.name)}</strong><span>${escapeHtml(input.identity.email)}</span></div></div>`
    : `<div class="who"><div class="avatar" aria-hidden="true">D</div><div><strong>A new demo identity</strong><span>Made for this browser; no password, no real account.</span></div></div>`;
  const scopes = input.scopes
    .filter((scope) => SCOPE_LABELS[scope])
    .map((scope) => `<li>${escapeHtml(SCOPE_LABELS[scope] ?? scope)}</li>`)
    .join('');
  const action = `${input.mountPath}/interaction/${encodeURIComponent(input.uid)}`;
  return page(
    'Continue to Conductor',
    `<span class="badge">Demo OIDC provider</span>
<h1>Continue to ${escapeHtml(input.clientName)}?</h1>
<p>This is Conductor's built-in demo identity provider. It shares the following with ${escapeHtml(input.clientName)}:</p>
${who}<ul>${scopes}</ul>
<div class="actions">
<form method="post" action="${action}/confirm"><button class="primary" type="submit" autofocus>Continue</button></form>
<form method="post" action="${action}/abort"><button type="submit">Cancel</button></form>
</div>`,
  );
}

export function issuerErrorPage(title: string, message: string): string {
  return page(title, `<span class="badge">Demo OIDC provider</span><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`);
}

/** Headers for the issuer's HTML: the app's hooks do not run on the hijacked replies. */
export const ISSUER_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
} as const;

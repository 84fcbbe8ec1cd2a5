/**
 * The published demo account (its credentials are on the login page) is shared by every visitor:
 * what one visitor changes, the next one gets, so the changes that would lock others out, expose
 * them or spend the operator's hosted provider keys are refused (403) with these messages. The
 * server sends them and the web app shows them next to the controls it disables for the demo.
 */
const OWN_ACCOUNT = 'Create your own free account to do this.';

export const DEMO_ACCOUNT_REFUSALS = {
  password: `The demo account is shared, so its password cannot be changed. ${OWN_ACCOUNT}`,
  email: `The demo account is shared, so its email cannot be changed. ${OWN_ACCOUNT}`,
  deleteAccount: `The demo account is shared, so it cannot be deleted. ${OWN_ACCOUNT}`,
  providerKeys: `The demo account is shared, so provider keys cannot be added or removed on it. ${OWN_ACCOUNT}`,
  billing: `The demo account is shared, so its plan cannot be changed or cancelled. ${OWN_ACCOUNT}`,
  name: `The demo account is shared, so its name cannot be changed. ${OWN_ACCOUNT}`,
  routing: `The demo account is shared, so its default routing policy cannot be changed. You can still send a policy with each request (the x-conductor-routing header). ${OWN_ACCOUNT}`,
  sampleKey:
    'This sample key comes with the demo account and is shared by every visitor, so it cannot be renamed or revoked. Keys you create here are yours to manage.',
  liveApiKey:
    'The demo account can create test keys only (cc_test_sk_…, answered by the sandbox at no cost). Create your own free account for live keys.',
} as const;

/** Shown on the demo account's sessions list: other visitors' sessions (their addresses and browsers) are not. */
export const DEMO_SESSIONS_NOTE = 'The demo account is shared: only this session is shown.';

/** Shown instead of the demo account's ticket list: visitors never see each other's tickets. */
export const DEMO_TICKETS_NOTE =
  'The demo account is shared, so the tickets sent from it are not listed here, and replies go to the demo address. To get an answer, create your own free account or send the form signed out.';

/** Shown above the demo account's key list: each visitor sees the sample keys and the keys of their own session. */
export const DEMO_KEYS_NOTE =
  'The demo account is shared: you see its two sample keys, which nobody can rename or revoke, and the test keys you create in this session. Your keys end with this session: they expire when it does, and signing out revokes them.';

/** In the demo account's recent requests, the key of a request another visitor sent (its name is theirs). */
export const DEMO_OTHER_VISITOR_KEY = "Another visitor's key";

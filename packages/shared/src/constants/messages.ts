/** The spec's exact strings (section 8 and the forms of section 5). Defined once, imported everywhere. */
export const MESSAGES = {
  sessionExpired: 'Session expired. Please login again.',
  serverError: 'Server error. Please try again later.',
  waitlist: {
    duplicate: 'This email is already on our waitlist!',
    invalidEmail: 'Please enter a valid email address',
    otherFailure: (email: string) => `Something went wrong. Please try again or contact us at ${email}`,
    success: "You're on the list! We'll email you when Conductor launches.",
  },
  /** The footer's 'Stay updated' box (the spec leaves its submit behaviour open): news, not a launch. */
  subscribe: {
    duplicate: 'This email is already subscribed to our updates.',
    success: "You're subscribed. Product news arrives about once a month.",
  },
  login: {
    emailRequired: 'Email is required',
    emailInvalid: 'Invalid email address',
    passwordRequired: 'Password is required',
    passwordTooShort: 'Password must be at least 6 characters',
    failure: 'Invalid email or password',
    invalidCredentials: 'Invalid credentials',
    success: 'Welcome back!',
    submitting: 'Signing in...',
  },
  register: {
    nameRequired: 'Full name is required',
    nameTooShort: 'Name must be at least 2 characters',
    passwordRequired: 'Password is required',
    passwordTooShort: 'Password must be at least 8 characters',
    passwordComplexity: 'Password must contain uppercase, lowercase, and number',
    confirmRequired: 'Please confirm your password',
    passwordsDiffer: 'Passwords do not match',
    acceptTerms: 'You must accept the terms and conditions',
    failure: 'Failed to create account. Please try again.',
    success: 'Account created successfully!',
    welcome: 'Welcome to Conductor.',
    duplicateEmail: 'An account with this email already exists. Sign in instead.',
    commonPassword: 'This password is too common. Choose one that is harder to guess.',
  },
  oidc: {
    redirecting: (provider: string) => `Redirecting to ${provider}...`,
    startFailure: 'OIDC signup failed. Please try again.',
    startFailureCause: 'Failed to initiate OIDC signup',
    demoSuccess: 'Demo OIDC signup successful!',
    stateMismatch: 'Invalid state parameter',
    providerError: (error: string) => `OIDC error: ${error}`,
    missingParameters: 'Missing required parameters from OIDC callback',
    unknownError: 'Unknown error occurred',
    failureToast: 'OIDC signup failed',
    successToast: 'Successfully signed up via OIDC!',
    successLines: ['Account verified automatically', 'Free trial activated', '10,000 tokens ready to use'],
  },
  onboarding: {
    keysSaved: 'API keys configured successfully!',
    keysFailed: 'Failed to save API keys. Please try again.',
  },
  providerKeys: {
    openai: 'Invalid OpenAI API key format',
    anthropic: 'Invalid Anthropic API key format',
    google: 'Invalid Google API key format',
    azure: 'Azure key too short',
    mistral: 'Mistral key too short',
    cohere: 'Cohere key too short',
  },
  support: {
    noResults: 'No results found',
  },
  rateLimited: 'Too many requests. Please wait a moment and try again.',
} as const;

export const HOME_NOTES = ['No credit card required', 'Free 14-day trial', 'OpenAI-compatible API'] as const;

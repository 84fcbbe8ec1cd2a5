export * from './constants/limits.ts';
export * from './constants/messages.ts';
export * from './constants/plans.ts';
export * from './constants/providers.ts';
export * from './schemas/auth.ts';
export * from './schemas/fields.ts';
export * from './schemas/health.ts';

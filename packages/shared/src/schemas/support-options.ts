/**
 * The support ticket form's choices and limits, without zod: the support pages render them
 * before they load the form's schema (support.ts builds the schema from these).
 */
export const TICKET_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export const TICKET_CATEGORIES = ['technical', 'billing', 'account', 'feature-request', 'other'] as const;

export const TICKET_PRIORITY_LABELS: Record<(typeof TICKET_PRIORITIES)[number], string> = {
  low: 'Low',
  medium: 'Medium',
  high: 'High',
  urgent: 'Urgent',
};
export const TICKET_CATEGORY_LABELS: Record<(typeof TICKET_CATEGORIES)[number], string> = {
  technical: 'Technical',
  billing: 'Billing & Plans',
  account: 'Account',
  'feature-request': 'Feature request',
  other: 'Other',
};

export const ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const ATTACHMENT_MAX_FILES = 5;
/** All of a ticket's attachments together: the server reads no more than this of one upload. */
export const ATTACHMENT_MAX_TOTAL_BYTES = 25 * 1024 * 1024;
export const ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'application/pdf'] as const;
export type AttachmentType = (typeof ATTACHMENT_TYPES)[number];

import type { ContactRequest, ContactResponse } from '@conductor/shared/schemas/contact';
import { api } from '~/lib/api-client';

/** `POST /api/v1/contact`. */
export const sendContactMessage = (body: ContactRequest) => api.post<ContactResponse>('/contact', body);

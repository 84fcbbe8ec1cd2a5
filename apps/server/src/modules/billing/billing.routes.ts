import {
  BillingOverview,
  ChangePlanInput,
  ChangePlanResult,
  InvoiceIdParams,
  InvoiceList,
  ProrationPreview,
} from '@conductor/shared/schemas/billing';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signedIn } from '../portal/signed-in.ts';
import { billingOverview, changePlan, findInvoice, listInvoices, previewPlanChange, setCancelAtPeriodEnd } from './billing.service.ts';
import { renderInvoiceHtml } from './invoice-document.ts';
import { DEMO_ACCOUNT_REFUSALS } from '@conductor/shared/constants/demo-account';
import { refuseOnDemo } from '../users/demo-account.ts';

export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  const { database, clock } = app.context;
  const tags = ['Billing'];
  const overviewOf = (request: Parameters<typeof signedIn>[0]) => billingOverview(database.db, signedIn(request).user, clock.now());

  app.get(
    '/api/v1/billing',
    { schema: { tags, summary: 'Plan, period, usage this month and the estimated bill', response: { 200: BillingOverview } } },
    overviewOf,
  );

  app.post(
    '/api/v1/billing/preview',
    {
      schema: {
        tags,
        summary: 'What a plan change would cost now (prorated, or a free trial)',
        body: ChangePlanInput,
        response: { 200: ProrationPreview },
      },
    },
    async (request) => previewPlanChange(database.db, signedIn(request).user, request.body, clock.now()),
  );

  app.post(
    '/api/v1/billing/change-plan',
    {
      schema: {
        tags,
        summary: 'Change plan now, prorated (the first move to a paid plan starts a 14-day free trial)',
        body: ChangePlanInput,
        response: { 200: ChangePlanResult },
      },
    },
    async (request) => {
      const { user } = signedIn(request);
      refuseOnDemo(user, DEMO_ACCOUNT_REFUSALS.billing);
      const { invoice } = await changePlan(database.db, user, request.body, clock.now());
      return { invoice, billing: await billingOverview(database.db, { id: user.id, plan: request.body.plan }, clock.now()) };
    },
  );

  app.post(
    '/api/v1/billing/cancel',
    { schema: { tags, summary: 'Cancel at the end of the current period', response: { 200: BillingOverview } } },
    async (request) => {
      const { user } = signedIn(request);
      refuseOnDemo(user, DEMO_ACCOUNT_REFUSALS.billing);
      await setCancelAtPeriodEnd(database.db, user, true, clock.now());
      return overviewOf(request);
    },
  );

  app.post(
    '/api/v1/billing/resume',
    { schema: { tags, summary: 'Undo a pending cancellation', response: { 200: BillingOverview } } },
    async (request) => {
      const { user } = signedIn(request);
      refuseOnDemo(user, DEMO_ACCOUNT_REFUSALS.billing);
      await setCancelAtPeriodEnd(database.db, user, false, clock.now());
      return overviewOf(request);
    },
  );

  app.get(
    '/api/v1/billing/invoices',
    { schema: { tags, summary: 'Invoice history', response: { 200: InvoiceList } } },
    async (request) => ({
      invoices: await listInvoices(database.db, signedIn(request).user, clock.now()),
    }),
  );

  app.get(
    '/api/v1/billing/invoices/:id/download',
    { schema: { tags, summary: 'A printable HTML invoice', params: InvoiceIdParams } },
    async (request, reply) => {
      const { user } = signedIn(request);
      const invoice = await findInvoice(database.db, user.id, request.params.id);
      reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-disposition', `attachment; filename="conductor-${invoice.number}.html"`)
        .header('cache-control', 'no-store');
      return renderInvoiceHtml(invoice, { name: user.name, email: user.email });
    },
  );
};

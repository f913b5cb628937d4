// `POST /v1/billing/webhook`: Stripe's events. The signature covers the exact bytes Stripe sent,
// so this route, alone, takes its body raw: the parsers are replaced in this plugin's scope only
// and every other route still parses JSON as before. No session: the signature is the credential.
import type { FastifyInstance } from 'fastify';
import { NotImplementedError } from '@cms/errors';
import { billingWebhookRoutes } from '@cms/management-api';
import { BILLING_OFF } from './billing.ts';
import type { ManagementOptions } from './options.ts';

export async function billingWebhookRoute(app: FastifyInstance, { platform }: ManagementOptions): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  app.post('/billing/webhook', { schema: billingWebhookRoutes.webhook }, async (request) => {
    if (!platform.billing) throw new NotImplementedError(BILLING_OFF);
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    const signature = request.headers['stripe-signature'];
    const outcome = await platform.billing.webhook.handle(body, typeof signature === 'string' ? signature : undefined);
    return { received: true, outcome };
  });
}

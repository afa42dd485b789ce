import {
  CheckoutRequest,
  CheckoutResponse,
  DemoPayRequest,
  DemoPayResponse,
  IdParam,
  LimitMessages,
  Order,
  OrdersResponse,
  PaymentProviderResponse,
  PlansResponse,
  WebhookAck,
} from '@tonearm/contract';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-types.js';
import { perUserPerMinute } from '../../plugins/rate-limit.js';
import { requireUser } from '../../http/session.js';
import type { AppDeps } from '../shared-deps.js';
import { toUserJson } from '../users/users.presenter.js';
import { toOrderJson } from './payments.presenter.js';
import type { PaymentsService } from './payments.service.js';

const tags = ['payments'];
/** Stripe events are a few KiB; anything far larger is not a webhook. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/** The origin the browser comes back to after paying: PUBLIC_URL when configured, else this request's origin. */
function returnBase(request: FastifyRequest, publicUrl: string | null): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * POST /api/payment/webhook: no session (the provider calls it), authenticated by its signature alone. Registered in
 * its own scope, whose only body parser keeps the raw bytes: the signature covers them exactly, so JSON must not be
 * parsed (and re-serialised) first.
 */
function webhookRoute(scope: App, payments: PaymentsService): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });
  scope.post(
    '/api/payment/webhook',
    { config: { access: 'public' }, schema: { tags, response: { 200: WebhookAck } } },
    async (request) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      await payments.handleWebhook(raw, Array.isArray(signature) ? signature[0] : signature);
      return { received: true as const };
    },
  );
}

/** DESIGN §4 Payments. Plans are public; everything else about orders belongs to the signed-in buyer. */
export async function paymentsRoutes(
  app: App,
  { config }: Pick<AppDeps, 'config'>,
  payments: PaymentsService,
): Promise<void> {
  app.get(
    '/api/payment/plans',
    { config: { access: 'public' }, schema: { tags, response: { 200: PlansResponse } } },
    () => payments.listPlans(),
  );

  app.get(
    '/api/payment/provider',
    { config: { access: 'public' }, schema: { tags, response: { 200: PaymentProviderResponse } } },
    () => ({
      provider: payments.providerName(),
    }),
  );

  app.post(
    '/api/payment/checkout',
    {
      config: {
        ...perUserPerMinute(config.limits.checkoutsPerMinute, LimitMessages.tooManyCheckouts),
        access: 'session',
      },
      schema: { tags, body: CheckoutRequest, response: { 200: CheckoutResponse } },
    },
    async (request) => {
      const buyer = await requireUser(request);
      const { order, redirectUrl } = await payments.checkout(
        buyer,
        request.body.plan,
        returnBase(request, config.publicUrl),
      );
      return { order: toOrderJson(order), redirectUrl };
    },
  );

  app.post(
    '/api/payment/demo/:id/pay',
    {
      config: { access: 'owner' },
      schema: { tags, params: IdParam, body: DemoPayRequest, response: { 200: DemoPayResponse } },
    },
    async (request) => {
      const buyer = await requireUser(request);
      const { order, user } = await payments.payDemo(buyer, request.params.id, request.body);
      return { order: toOrderJson(order), user: toUserJson(user) };
    },
  );

  app.get(
    '/api/payment/orders',
    { config: { access: 'session' }, schema: { tags, response: { 200: OrdersResponse } } },
    async (request) => (await payments.listOrders(await requireUser(request))).map(toOrderJson),
  );

  app.get(
    '/api/payment/orders/:id',
    { config: { access: 'owner' }, schema: { tags, params: IdParam, response: { 200: Order } } },
    async (request) => toOrderJson(await payments.getOrder(await requireUser(request), request.params.id)),
  );

  await app.register((scope, _options, done) => {
    webhookRoute(scope, payments);
    done();
  });
}

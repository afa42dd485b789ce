import { endpoints, LimitMessages } from '@tonearm/contract';
import type { FastifyRequest } from 'fastify';
import type { App } from '../../http/app-types.js';
import { route } from '../../http/endpoint-route.js';
import { perUserPerMinute } from '../../plugins/rate-limit.js';
import { requireUser } from '../../http/session.js';
import type { AppDeps } from '../shared-deps.js';
import { toUserJson } from '../users/users.presenter.js';
import { toOrderJson } from './payments.presenter.js';
import type { PaymentsService } from './payments.service.js';

/** Stripe events are a few KiB; anything far larger is not a webhook. */
const WEBHOOK_BODY_LIMIT = 512 * 1024;

/** The origin the browser comes back to after paying: PUBLIC_URL when configured, else this request's origin. */
function returnBase(request: FastifyRequest, publicUrl: string | null): string {
  return publicUrl ?? `${request.protocol}://${request.host}`;
}

/**
 * The provider's webhook: no session (the provider calls it), authenticated by its signature alone. Registered in
 * its own scope, whose only body parser keeps the raw bytes: the signature covers them exactly, so JSON must not be
 * parsed (and re-serialised) first.
 */
function webhookRoute(scope: App, payments: PaymentsService): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: WEBHOOK_BODY_LIMIT }, (_request, body, done) => {
    done(null, body);
  });
  route(scope, endpoints.payments.webhook, async (request) => {
    const raw: unknown = request.body;
    const signature = request.headers['stripe-signature'];
    await payments.handleWebhook(
      Buffer.isBuffer(raw) ? raw : Buffer.alloc(0),
      Array.isArray(signature) ? signature[0] : signature,
    );
    return { received: true as const };
  });
}

/** DESIGN §4 Payments. Plans are public; everything else about orders belongs to the signed-in buyer. */
export async function paymentsRoutes(
  app: App,
  { config }: Pick<AppDeps, 'config'>,
  payments: PaymentsService,
): Promise<void> {
  route(app, endpoints.payments.plans, () => payments.listPlans());

  route(app, endpoints.payments.provider, () => ({ provider: payments.providerName() }));

  const checkoutLimit = perUserPerMinute(config.limits.checkoutsPerMinute, LimitMessages.tooManyCheckouts);
  route(app, endpoints.payments.checkout, { config: checkoutLimit }, async (request) => {
    const buyer = await requireUser(request);
    const { order, redirectUrl } = await payments.checkout(
      buyer,
      request.body.plan,
      returnBase(request, config.publicUrl),
    );
    return { order: toOrderJson(order), redirectUrl };
  });

  route(app, endpoints.payments.payDemo, async (request) => {
    const buyer = await requireUser(request);
    const { order, user } = await payments.payDemo(buyer, request.params.id, request.body);
    return { order: toOrderJson(order), user: toUserJson(user) };
  });

  route(app, endpoints.payments.orders, async (request) =>
    (await payments.listOrders(await requireUser(request))).map(toOrderJson),
  );

  route(app, endpoints.payments.orderPage, async (request) => {
    const { rows, nextCursor, total } = await payments.orderPage(await requireUser(request), request.query);
    return { items: rows.map(toOrderJson), nextCursor, total };
  });

  route(app, endpoints.payments.order, async (request) =>
    toOrderJson(await payments.getOrder(await requireUser(request), request.params.id)),
  );

  await app.register((scope, _options, done) => {
    webhookRoute(scope, payments);
    done();
  });
}

import type { App } from '../../http/app-types.js';
import type { ModuleDeps } from '../shared-deps.js';
import { buildPlans } from './payment-plans.js';
import { createPaymentProvider } from './payment-providers.js';
import { createPaymentsRepository } from './payments.repository.js';
import { paymentsRoutes } from './payments.routes.js';
import { PaymentsService } from './payments.service.js';

/** Plans, checkout, orders and the provider's webhook (`/api/payment`). */
export async function registerPayments(app: App, deps: ModuleDeps): Promise<void> {
  const service = new PaymentsService({
    repository: createPaymentsRepository(deps.db, deps.dialect),
    provider: createPaymentProvider(deps.config),
    plans: buildPlans(deps.config.prices),
    log: app.log,
    maxPendingOrders: deps.config.limits.pendingOrdersPerUser,
  });
  await paymentsRoutes(app, deps, service);
}

import type { App, AppDeps } from '../../http/app-types.js';
import { buildPlans } from './payment-plans.js';
import { createPaymentProvider } from './payment-providers.js';
import { createPaymentsRepository } from './payments.repository.js';
import { paymentsRoutes } from './payments.routes.js';
import { PaymentsService } from './payments.service.js';

export async function registerPayments(app: App, deps: AppDeps): Promise<void> {
  const service = new PaymentsService({
    repository: createPaymentsRepository(deps.db, deps.dialect),
    provider: createPaymentProvider(deps.config),
    plans: buildPlans(deps.config.prices),
    log: app.log,
    maxPendingOrders: deps.config.limits.pendingOrdersPerUser,
  });
  await paymentsRoutes(app, deps, service);
}

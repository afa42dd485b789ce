import type { App } from '../../http/app-types.js';
import { paymentsRoutes } from './payments.routes.js';
import type { PaymentsService } from './payments.service.js';

/** Plans, checkout, orders and the provider's webhook (`/api/payment`). */
export async function registerPayments(
  app: App,
  deps: Parameters<typeof paymentsRoutes>[1] & { payments: PaymentsService },
): Promise<void> {
  await paymentsRoutes(app, deps, deps.payments);
}

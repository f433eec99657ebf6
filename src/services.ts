// Cross-module services reachable as ctx.services. Each is created once per app with what it
// needs (db, config) and takes the request context for anything tenant-scoped.
//
// The commerce services (inventory, pricing, promotions, tax, audit) are plain functions taking
// a ServiceContext (src/db/transaction.ts) whose `db` may be the caller's transaction client:
// the checkout calls them inside its own transaction, one after another, so stock, promotion
// usage, prices and its order commit or roll back together.
import type { OrganizationDirectory } from './modules/organizations/service.js';
import type { JobsService } from './jobs/service.js';
import type { PaymentsService } from './modules/payments/service.js';
import type { Mailer } from './modules/orders/documents/mailer.js';
import type { InventoryService } from './modules/inventory/index.js';
import type { PricingService } from './modules/pricing/index.js';
import type { PromotionsService } from './modules/promotions/index.js';
import type { TaxService } from './modules/tax/index.js';
import type { AuditService } from './modules/audit/index.js';
import type { IdentityService } from './auth/identity-service.js';
import type { Metrics } from './observability/metrics.js';

export interface Services {
  organizations: OrganizationDirectory;
  /** Enqueue background jobs (optionally inside the caller's transaction). */
  jobs: JobsService;
  /** The payment adapter (Stripe or the offline test adapter) and the webhook secret. */
  payments: PaymentsService;
  /** Outgoing mail: SMTP when configured, otherwise JSON files under DATA_DIR/mail. */
  mailer: Mailer;
  inventory: InventoryService;
  pricing: PricingService;
  promotions: PromotionsService;
  tax: TaxService;
  audit: AuditService;
  /** Mint and revoke API keys from a handler (the point-of-sale plugin's per-shift keys). */
  identity: IdentityService;
  /** This app's Prometheus series (observability/metrics.ts): one registry per app. */
  metrics: Metrics;
}

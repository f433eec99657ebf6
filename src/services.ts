// Cross-module services reachable as ctx.services. Each is created once per app with what it
// needs (db, config) and takes the request context for anything tenant-scoped.
import type { OrganizationDirectory } from './modules/organizations/service.js';
import type { JobsService } from './jobs/service.js';
import type { PaymentsService } from './modules/payments/service.js';
import type { Mailer } from './modules/orders/documents/mailer.js';

export interface Services {
  organizations: OrganizationDirectory;
  /** Enqueue background jobs (optionally inside the caller's transaction). */
  jobs: JobsService;
  /** The payment adapter (Stripe or the offline test adapter) and the webhook secret. */
  payments: PaymentsService;
  /** Outgoing mail: SMTP when configured, otherwise JSON files under DATA_DIR/mail. */
  mailer: Mailer;
}

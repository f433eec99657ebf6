// Cross-module services reachable as ctx.services. Each is created once per app with what it
// needs (db, config) and takes the request context for anything tenant-scoped.
//
// The commerce services (inventory, pricing, promotions, tax, audit) are plain functions taking
// a ServiceContext (src/db/transaction.ts) whose `db` may be the caller's transaction client:
// the checkout calls them inside its own transaction, one after another, so stock, promotion
// usage, prices and its order commit or roll back together.
//
// A registry: this file imports nothing. Each service adds its member where it is defined, by
// declaration merging, so the core never imports a module and no import cycle runs through here:
//
//   declare module '../../services.js' {
//     interface Services { inventory: InventoryService }
//   }
//
// createServices (src/app.ts) must build every member, so a service cannot be forgotten. Members:
// jobs (jobs/service.ts), identity (auth/identity-service.ts), metrics (observability/metrics.ts),
// organizations, payments, mailer (orders/documents/mailer.ts), inventory, pricing, promotions,
// tax and audit (in their modules).
// biome-ignore lint/suspicious/noEmptyInterface: a registry, empty here and filled by declaration merging
export interface Services {}

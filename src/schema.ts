// The list of modules: every module registers its operations and types on import, into the core
// builder (src/graphql/builder.ts); buildSchema (src/graphql/schema.ts) then builds what was
// registered. An entry file (app.ts, worker.ts, scripts, tests) imports this file first, so the
// core never imports a module. `npm run schema:print` writes schema.graphql from it.
import './modules/settings/schema.js';
import './modules/store/schema.js';
import './modules/catalog/schema.js';
import './modules/jobs/schema.js';
import './modules/webhooks/schema.js';
import './modules/carts/schema.js';
import './modules/checkout/schema.js';
import './modules/orders/schema.js';
import './modules/order-edits/schema.js';
import './modules/draft-orders/schema.js';
import './modules/payments/schema.js';
import './modules/gift-cards/schema.js';
// Gift-card products: the order-line fields, the paid-order issuing job and the expiry sweep.
import './modules/gift-cards/graph.js';
import './modules/gift-cards/purchase.js';
import './modules/gift-cards/expiry.js';
import './modules/store-credit/schema.js';
import './plugins/viewer.schema.js';
import './modules/returns/schema.js';
import './modules/inventory/schema.js';
import './modules/pricing/schema.js';
import './modules/promotions/schema.js';
import './modules/tax/schema.js';
import './modules/tax/rates.schema.js';
import './modules/shipping/schema.js';
import './modules/shipping/cart.schema.js';
import './modules/shipping/lines.js';
import './modules/audit/schema.js';
import './modules/customers/schema.js';
import './modules/analytics/schema.js';
import './modules/search/schema.js';
import './modules/media/schema.js';
import './modules/bulk/schema.js';
import './modules/api-keys/schema.js';
import './graphql/error-codes.js';
// Relations between modules (resolved when selected, batched): after every module's own types.
import './modules/pricing/graph.js';
import './modules/inventory/graph.js';
import './modules/orders/graph.js';
import './modules/carts/graph.js';
import './modules/customers/graph.js';
import './modules/webhooks/graph.js';

export { buildSchema, isSchemaBuilt, printSchemaSDL } from './graphql/schema.js';

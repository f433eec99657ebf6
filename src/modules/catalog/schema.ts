// The catalog module: importing this file registers every catalog type and operation.
//
// Layout: one folder per part, each with its schema (operations) and service (rules):
//   entities/       catalog entities: list, get, create, update, delete, publish, archive
//   attributes/     localized attribute values of an entity
//   variants/       option types, option values and variants
//   taxonomy/       categories and brands, and entity membership in them
//   custom-fields/  field definitions (definitions.service.ts) and custom field values
//   ownership/      field ownership: whose edit of a field wins (platform, store or shared)
// and, shared by the parts: types.ts (GraphQL object types), views.ts (rows → answers),
// queries.ts and include.ts (batched reads, `include` embeds), graph.ts (relations other modules
// resolve), events.ts, hooks.ts, shared.ts, localized.ts, seed.ts.
import './types.js';
import './entities/schema.js';
import './attributes/schema.js';
import './taxonomy/schema.js';
import './variants/schema.js';
import './custom-fields/schema.js';
import './ownership/schema.js';
import './graph.js';

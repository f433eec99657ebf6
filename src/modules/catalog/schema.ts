// The catalog module: importing this file registers every catalog type and operation.
import './types.js';
import './entity.schema.js';
import './attributes.schema.js';
import './taxonomy.schema.js';
import './variants.schema.js';
import './custom-fields.schema.js';
import './ownership.schema.js';
import './graph.js';

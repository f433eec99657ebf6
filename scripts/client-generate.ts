// `npm run client:generate`: writes client/src/generated/api.ts, the `paths` and `components`
// types of the SDK, from the OpenAPI document. No server or database: the document is built
// in-process from the GraphQL schema and the operation registry (scripts/openapi-offline.ts),
// exactly as /api/doc serves it. test/client/generated.test.ts fails when the file is stale.
import fs from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from '../src/paths.js';
import { clientTypesSource } from './openapi-offline.js';

const target = path.join(PACKAGE_ROOT, 'client/src/generated/api.ts');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, await clientTypesSource());
console.log(`wrote ${path.relative(process.cwd(), target) || target}`);

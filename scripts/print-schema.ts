// `npm run schema:print`: writes schema.graphql from the Pothos schema (the committed copy is
// what SDK generators and reviewers read; test/platform/schema-drift.test.ts fails when stale).
import fs from 'node:fs';
import path from 'node:path';
import { printSchemaSDL } from '../src/schema.js';
import { PACKAGE_ROOT } from '../src/paths.js';

const target = path.join(PACKAGE_ROOT, 'schema.graphql');
fs.writeFileSync(target, printSchemaSDL());
console.log(`wrote ${path.relative(process.cwd(), target) || target}`);

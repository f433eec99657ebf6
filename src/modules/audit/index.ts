// What other modules use from audit. Operations declared through the route builder are audited
// by it (src/graphql/operation.ts); `record` is for writes made outside an operation (jobs,
// webhooks, plugins' own handlers), with the client of the write's transaction.
import { recordAudit, attributeIdentityChanges } from './record.js';
import { listAuditEntries } from './service.js';

export const auditService = { record: recordAudit, attributeIdentityChanges, list: listAuditEntries };
export type AuditService = typeof auditService;
export type { AuditEntryInput, AuditOrigin } from './record.js';

// ctx.services.audit: the core's Services registry (src/services.ts) is filled by each module, by declaration merging.
declare module '../../services.js' {
  interface Services {
    audit: AuditService;
  }
}

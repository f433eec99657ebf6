// Cross-module services reachable as ctx.services. Each is created once per app with what it
// needs (db, config) and takes the request context for anything tenant-scoped.
import type { OrganizationDirectory } from './modules/organizations/service.js';
import type { JobsService } from './jobs/service.js';

export interface Services {
  organizations: OrganizationDirectory;
  /** Enqueue background jobs (optionally inside the caller's transaction). */
  jobs: JobsService;
}

// Cross-module services reachable as ctx.services. Each is created once per app with what it
// needs (db, config) and takes the request context for anything tenant-scoped.
import type { OrganizationDirectory } from './modules/organizations/service.js';

export interface Services {
  organizations: OrganizationDirectory;
}

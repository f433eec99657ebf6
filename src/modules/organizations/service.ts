// Organizations are the tenancy boundary. A single-store install gets the `default`
// organization with no setup; multi-store installs map requests to one through
// config.storeResolver. Lookups are cached in memory: organizations are created rarely and
// their id, slug and name are read on every request.
import type { Db } from '../../db/client.js';
import type { OrganizationRef } from '../../context.js';

export const DEFAULT_ORGANIZATION_SLUG = 'default';

export interface OrganizationDirectory {
  defaultOrganization(): Promise<OrganizationRef>;
  byId(id: string): Promise<OrganizationRef | null>;
  bySlug(slug: string): Promise<OrganizationRef | null>;
  create(input: { slug: string; name: string }): Promise<OrganizationRef>;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function ref(row: { id: string; slug: string; name: string }): OrganizationRef {
  return { id: row.id, slug: row.slug, name: row.name };
}

export function createOrganizationDirectory(db: Db): OrganizationDirectory {
  const byIdCache = new Map<string, OrganizationRef>();
  let defaultOrg: Promise<OrganizationRef> | null = null;

  async function byId(id: string): Promise<OrganizationRef | null> {
    const cached = byIdCache.get(id);
    if (cached) return cached;
    if (!UUID_RE.test(id)) return null;
    const row = await db.organization.findUnique({ where: { id }, select: { id: true, slug: true, name: true } });
    if (row) byIdCache.set(row.id, ref(row));
    return row ? ref(row) : null;
  }

  return {
    defaultOrganization() {
      // Upsert once per process: concurrent first requests share the one promise.
      defaultOrg ??= db.organization
        .upsert({
          where: { slug: DEFAULT_ORGANIZATION_SLUG },
          create: { slug: DEFAULT_ORGANIZATION_SLUG, name: 'Default store' },
          update: {},
          select: { id: true, slug: true, name: true },
        })
        .then((row) => {
          byIdCache.set(row.id, ref(row));
          return ref(row);
        })
        .catch((error: unknown) => {
          defaultOrg = null;
          throw error;
        });
      return defaultOrg;
    },
    byId,
    async bySlug(slug) {
      const row = await db.organization.findUnique({ where: { slug }, select: { id: true, slug: true, name: true } });
      return row ? ref(row) : null;
    },
    async create(input) {
      const row = await db.organization.create({ data: input, select: { id: true, slug: true, name: true } });
      byIdCache.set(row.id, ref(row));
      return ref(row);
    },
  };
}

// ctx.services.organizations: the core's Services registry (src/services.ts) is filled by each module, by declaration merging.
declare module '../../services.js' {
  interface Services {
    organizations: OrganizationDirectory;
  }
}

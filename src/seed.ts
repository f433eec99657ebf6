// `commerce seed`: what a new store needs before its first request. Idempotent: settings that
// already exist are left as they are.
import type { Prisma } from './generated/prisma/client.js';
import type { Runtime } from './app.js';
import { seedCatalog } from './modules/catalog/seed.js';

const DEFAULT_SETTINGS: Record<string, Prisma.InputJsonObject> = {
  general: { currency: 'USD', timezone: 'UTC', locale: 'en' },
  policies: { refundUndoWindowMinutes: 15 },
};

export async function seed(runtime: Pick<Runtime, 'db' | 'services'>): Promise<{ organization: string; settings: string[] }> {
  const organization = await runtime.services.organizations.defaultOrganization();
  const created: string[] = [];
  for (const [group, values] of Object.entries(DEFAULT_SETTINGS)) {
    const result = await runtime.db.setting.createMany({ data: [{ organizationId: organization.id, group, values }], skipDuplicates: true });
    if (result.count) created.push(group);
  }
  await seedCatalog(runtime, organization);
  return { organization: organization.slug, settings: created };
}

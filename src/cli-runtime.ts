// What a `commerce` command needs, and nothing more: the database (embedded or DATABASE_URL,
// migrated as the server would), Prisma, the identity instance and the organization directory.
// It is bootRuntime (app.ts) without the HTTP app, the GraphQL schema, the services of every
// module and the plugins' routes: importing app.ts compiles and loads all of them (about 20 s
// under load on the 2-core machine for `api-keys create`, for a command that writes one row).
// Plugins still shape the config (roles, API-key scopes) through loadConfig.
import { createMailer } from './modules/orders/documents/mailer.js';
import { customerLifecycle } from './modules/customers/identity.js';
import type { Config } from './config/index.js';
import { createDb, resolveDatabase, type Db } from './db/client.js';
import { applyMigrations } from './db/migrations.js';
import { createAuth, type Auth } from './auth/better-auth.js';
import { resolveAuthSecret } from './auth/secret.js';
import { createOrganizationDirectory, type OrganizationDirectory } from './modules/organizations/service.js';
import { MIGRATIONS_DIR } from './paths.js';

export interface CliRuntime {
  config: Config;
  db: Db;
  auth: Auth;
  services: { organizations: OrganizationDirectory };
  close(): Promise<void>;
}

export async function bootCliRuntime(config: Config): Promise<CliRuntime> {
  const database = await resolveDatabase(config, () => undefined);
  try {
    await applyMigrations(database.url, MIGRATIONS_DIR);
    const { db } = createDb(database.url);
    const auth = createAuth(config, db, {
      secret: resolveAuthSecret(config),
      baseUrl: config.baseUrl ?? `http://localhost:${config.port}`,
      mailer: createMailer(config),
      users: customerLifecycle,
    });
    const organizations = createOrganizationDirectory(db);
    await organizations.defaultOrganization();
    return {
      config,
      db,
      auth,
      services: { organizations },
      async close() {
        await db.$disconnect();
        await database.release();
      },
    };
  } catch (error) {
    await database.release();
    throw error;
  }
}

// `commerce`: operator commands against the same database as a running server (DATABASE_URL,
// or the embedded PostgreSQL under DATA_DIR, reused while a server holds it).
//   commerce users create --email --password --name --role
//   commerce api-keys create --scope admin [--name] [--ttl 86400] [--user email] [--save-env .env]
//                            [--env-var NAME] [--config path] [--json]
//   commerce api-keys scopes [--json]
//   commerce migrate | seed
//
// Start-up cost is the point of this file's shape: it imports only commander statically, so
// `--help` loads no config, no Prisma and no app (test/platform/cli.test.ts checks). Each command
// imports what it uses when it runs: the config, and for database commands the CLI runtime
// (cli-runtime.ts: database, Prisma, identity), never the HTTP app or the GraphQL schema.
// (runtime-flags.js, which must precede Prisma, is imported first by db/client.ts.)
import fs from 'node:fs';
import path from 'node:path';
import { Command, InvalidArgumentError } from 'commander';
import type { Config } from './config/index.js';
import type { CliRuntime } from './cli-runtime.js';
import { MIN_API_KEY_TTL_SECONDS } from './auth/api-key-rules.js';

async function loadConfig(...args: Parameters<typeof import('./config/index.js').loadConfig>): Promise<Config> {
  const { loadConfig: load } = await import('./config/index.js');
  return load(...args);
}

class CliError extends Error {}

function organizationOption(runtime: CliRuntime, slug?: string) {
  return slug
    ? runtime.services.organizations.bySlug(slug).then((org) => {
        if (!org) throw new CliError(`no organization with slug ${slug}`);
        return org;
      })
    : runtime.services.organizations.defaultOrganization();
}

async function withRuntime<T>(configPath: string | undefined, fn: (runtime: CliRuntime, config: Config) => Promise<T>): Promise<T> {
  const config = await loadConfig({ logLevel: 'warn' }, { configPath });
  const { bootCliRuntime } = await import('./cli-runtime.js');
  const runtime = await bootCliRuntime(config);
  try {
    return await fn(runtime, config);
  } finally {
    await runtime.close();
  }
}

function ttl(value: string): number {
  const seconds = Number(value);
  if (!Number.isInteger(seconds) || seconds < MIN_API_KEY_TTL_SECONDS) {
    throw new InvalidArgumentError(`must be a whole number of seconds, at least ${MIN_API_KEY_TTL_SECONDS}`);
  }
  return seconds;
}

/** Writes NAME=value into an env file, replacing an existing NAME line. */
/**
 * The name of a key minted without --name: the UTC minute it was minted (the list shows its scope
 * beside it). Short enough for better-auth's 32-character name limit.
 */
export function cliKeyName(at = new Date()): string {
  return `CLI key ${at.toISOString().slice(0, 16).replace('T', ' ')}`;
}

function saveEnv(file: string, name: string, value: string): void {
  const target = path.resolve(file);
  const lines = fs.existsSync(target)
    ? fs
        .readFileSync(target, 'utf8')
        .split('\n')
        .filter((line) => !line.startsWith(`${name}=`))
    : [];
  while (lines.length && lines[lines.length - 1] === '') lines.pop();
  lines.push(`${name}=${value}`);
  fs.writeFileSync(target, `${lines.join('\n')}\n`, { mode: 0o600 });
}

export function buildCli(): Command {
  const program = new Command('commerce').description('Operate a commerce service').showHelpAfterError();

  const users = program.command('users').description('Manage users');
  users
    .command('create')
    .description('Create a user with a role (owner, admin, staff, customer or a configured one)')
    .requiredOption('--email <email>')
    .requiredOption('--password <password>')
    .requiredOption('--name <name>')
    .requiredOption('--role <role>')
    .option('--org <slug>', 'organization slug (default: the default organization)')
    .option('--config <path>', 'config module')
    .option('--json', 'print the user as JSON')
    .action(async (opts: { email: string; password: string; name: string; role: string; org?: string; config?: string; json?: boolean }) => {
      await withRuntime(opts.config, async (runtime, config) => {
        const organization = await organizationOption(runtime, opts.org);
        const { createUser } = await import('./auth/accounts.js');
        const user = await createUser({ auth: runtime.auth, config }, { ...opts, organizationId: organization.id });
        if (opts.json) console.log(JSON.stringify({ id: user.id, email: user.email, role: user.role, organizationId: user.organizationId }));
        else console.log(`created ${user.role} ${user.email} (${user.id}) in ${organization.slug}`);
      });
    });

  const keys = program.command('api-keys').description('Manage API keys');
  keys
    .command('create')
    .description('Mint an API key against a declared scope; the key is shown only now')
    .requiredOption('--scope <scope>', 'a scope declared in apiKeyScopes (see `commerce api-keys scopes`)')
    .option('--name <name>', 'a label for the key (default: "CLI key <UTC date and minute>")')
    .option('--ttl <seconds>', `lifetime in seconds (at least ${MIN_API_KEY_TTL_SECONDS}); default: no expiry`, ttl)
    .option('--user <email>', 'the user the key acts for (default: the organization service account)')
    .option('--org <slug>', 'organization slug (default: the default organization)')
    .option('--save-env <file>', 'also write the key into this env file')
    .option('--env-var <name>', 'variable name for --save-env', 'COMMERCE_API_KEY')
    .option('--config <path>', 'config module')
    .option('--json', 'print JSON; the last line is {"key": "..."}')
    .action(async (opts: { scope: string; name?: string; ttl?: number; user?: string; org?: string; saveEnv?: string; envVar: string; config?: string; json?: boolean }) => {
      await withRuntime(opts.config, async (runtime, config) => {
        const organization = await organizationOption(runtime, opts.org);
        const { mintApiKey } = await import('./auth/accounts.js');
        const minted = await mintApiKey(
          { auth: runtime.auth, config, db: runtime.db },
          // A key without --name still gets one, so the dashboard's API-keys list can tell it apart.
          { scope: opts.scope, name: opts.name ?? cliKeyName(), ttlSeconds: opts.ttl, userEmail: opts.user, organizationId: organization.id },
        );
        if (opts.saveEnv) saveEnv(opts.saveEnv, opts.envVar, minted.key);
        if (opts.json) {
          console.log(JSON.stringify({ id: minted.id, scope: minted.scope, expiresAt: minted.expiresAt, userId: minted.userId, organization: organization.slug }));
          console.log(JSON.stringify({ key: minted.key }));
        } else {
          console.log(`API key (scope ${minted.scope}${minted.expiresAt ? `, expires ${new Date(minted.expiresAt).toISOString()}` : ''}) — shown only once:`);
          console.log(minted.key);
          if (opts.saveEnv) console.log(`saved as ${opts.envVar} in ${opts.saveEnv}`);
        }
      });
    });
  keys
    .command('scopes')
    .description('List the declared API-key scopes')
    .option('--config <path>', 'config module')
    .option('--json', 'print JSON')
    .action(async (opts: { config?: string; json?: boolean }) => {
      const config = await loadConfig({}, { configPath: opts.config });
      if (opts.json) return console.log(JSON.stringify(config.apiKeyScopes));
      for (const [name, scope] of Object.entries(config.apiKeyScopes)) {
        const perms = Object.entries(scope.permissions)
          .map(([module, actions]) => actions.map((a) => `${module}:${a}`).join(' '))
          .join(' ');
        console.log(`${name.padEnd(14)} ${scope.prefix.padEnd(12)} ${perms}\n${''.padEnd(14)} ${scope.description}`);
      }
    });

  program
    .command('migrate')
    .description('Apply pending migrations from prisma/migrations')
    .option('--config <path>', 'config module')
    .action(async (opts: { config?: string }) => {
      await withRuntime(opts.config, async () => console.log('migrations are up to date'));
    });

  program
    .command('seed')
    .description('Create the default organization and its default settings (idempotent)')
    .option('--config <path>', 'config module')
    .action(async (opts: { config?: string }) => {
      await withRuntime(opts.config, async (runtime) => {
        const { seed } = await import('./seed.js');
        // seed reads only the database and the organization directory.
        const summary = await seed(runtime as unknown as Parameters<typeof seed>[0]);
        console.log(`seeded ${summary.organization}: ${summary.settings.join(', ') || 'settings already present'}`);
      });
    });

  return program;
}

buildCli()
  .parseAsync(process.argv)
  .catch((error: unknown) => {
    // Expected failures (bad input, unknown scope or role) print one line, not a stack.
    // By name: ConfigError's module is loaded only by the commands that read the config.
    if (error instanceof CliError || (error instanceof Error && (error.name === 'ConfigError' || error.name === 'AccountError'))) {
      console.error(`commerce: ${error.message}`);
    } else {
      console.error(error);
    }
    process.exit(1);
  });

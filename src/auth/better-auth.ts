// Identity is better-auth: email sign-up/sign-in, the session cookie, bearer tokens (bearer
// plugin) and API keys (@better-auth/api-key, one configuration per API-key scope so each scope
// has its own prefix and expiry bounds). Roles and organizations are ours: `role` and
// `organizationId` are server-set user fields, never accepted from sign-up input.
import { randomUUID } from 'node:crypto';
import { betterAuth } from 'better-auth';
// Subpaths, not the plugins barrel (which loads every better-auth plugin: ~0.3 s per CLI start).
import { bearer } from 'better-auth/plugins/bearer';
import { twoFactor } from 'better-auth/plugins/two-factor';
import { prismaAdapter } from '@better-auth/prisma-adapter';
import { apiKey } from '@better-auth/api-key';
import { getCurrentAuthContextAsyncLocalStorage, getCurrentDBAdapterAsyncLocalStorage, getRequestStateAsyncLocalStorage } from '@better-auth/core/context';
import { libraryStorages, ScopedStorage } from '../async-storage.js';
import type { Config } from '../config/index.js';
import type { Db } from '../db/client.js';
import { permissionsFromMap } from './permissions.js';
import { authMail, type MailSender } from './mail.js';

/**
 * Who a new user becomes: the organization the request resolved to, and the role (customer
 * for public sign-up; the CLI sets staff, admin or owner). Set around the calls into better-auth
 * that may create a user (authCall), read by the user-create hook.
 */
export interface SignUpTarget {
  organizationId: string;
  role?: string;
}
const signUpTarget = new ScopedStorage<SignUpTarget>();

/**
 * better-auth's own AsyncLocalStorages (endpoint, request-state and adapter contexts): it runs
 * them inside each of its calls and never disables them, which left Node's promise hooks on for
 * every later request of the process (src/async-storage.ts). Known once the getters resolve.
 */
const betterAuthStorages: Array<{ disable(): void }> = [];
void Promise.all([getCurrentAuthContextAsyncLocalStorage(), getRequestStateAsyncLocalStorage(), getCurrentDBAdapterAsyncLocalStorage()]).then((storages) => {
  betterAuthStorages.push(...storages);
});
const aroundBetterAuthCall = libraryStorages(() => betterAuthStorages);

/**
 * Every call into better-auth goes through here (the auth routes, session checks, sign-up and
 * key minting): with the sign-up target when the call may create a user, and with better-auth's
 * storages disabled once no call into it is in flight.
 */
export function authCall<R>(fn: () => Promise<R>, target?: SignUpTarget): Promise<R> {
  return aroundBetterAuthCall(() => (target ? signUpTarget.run(target, fn) : fn()));
}

export const API_KEY_HEADER = 'x-api-key';

function apiKeyConfigurations(config: Config) {
  return Object.entries(config.apiKeyScopes).map(([name, scope]) => ({
    configId: name,
    defaultPrefix: scope.prefix,
    maximumPrefixLength: 32,
    apiKeyHeaders: API_KEY_HEADER,
    enableMetadata: true,
    // `start` (what the API-keys list shows) is the whole scope prefix plus six random
    // characters: better-auth's default of six characters in all is only the prefix, the same
    // for every key of a scope, and tells no two keys apart.
    startingCharactersConfig: { shouldStore: true, charactersLength: scope.prefix.length + 6 },
    // Our own rate limiter keys budgets by credential (http/rate-limit.ts); the plugin's
    // per-key counter would cost a write on every request.
    rateLimit: { enabled: false },
    deferUpdates: true,
    references: 'user' as const,
    keyExpiration: {
      defaultExpiresIn: null,
      minExpiresIn: scope.keyExpiration?.minExpiresIn ?? 1,
      maxExpiresIn: scope.keyExpiration?.maxExpiresIn ?? 365,
    },
    permissions: { defaultPermissions: scope.permissions },
  }));
}

/**
 * What sign-up and profile changes do beyond identity: the customers module's records (a customer
 * per customer sign-up, guest orders claimed on a verified email). The entry files pass
 * modules/customers/identity.ts, so this layer does not import a module.
 */
export interface UserLifecycle {
  created(db: Db, user: AuthUserRecord): Promise<void>;
  updated(db: Db, user: AuthUserRecord): Promise<void>;
}

/** The user row better-auth hands its database hooks, with our additional fields. */
export interface AuthUserRecord {
  id: string;
  email: string;
  name: string;
  emailVerified?: boolean | null;
  role?: string | null;
  organizationId?: string | null;
}

export function createAuth(config: Config, db: Db, options: { secret: string; baseUrl: string; mailer: MailSender; users: UserLifecycle }) {
  const secure = options.baseUrl.startsWith('https://');
  const mail = authMail(options.mailer);
  const { google, github } = config.auth.socialProviders;
  return betterAuth({
    appName: 'commerce',
    baseURL: options.baseUrl,
    basePath: '/api/auth',
    secret: options.secret,
    database: prismaAdapter(db, { provider: 'postgresql', transaction: true }),
    trustedOrigins: [new URL(options.baseUrl).origin, ...config.auth.trustedOrigins],
    // Budgets live in our own limiter, shared through Redis (http/rate-limit.ts).
    rateLimit: { enabled: false },
    emailAndPassword: {
      enabled: true,
      requireEmailVerification: config.auth.requireEmailVerification,
      autoSignIn: !config.auth.requireEmailVerification,
      // Password reset through the mail transport (SMTP, or JSON files under DATA_DIR/mail).
      sendResetPassword: mail.resetPassword,
      resetPasswordTokenExpiresIn: config.auth.emailLinkTtlSeconds,
      revokeSessionsOnPasswordReset: true,
    },
    emailVerification: {
      sendVerificationEmail: mail.verifyEmail,
      sendOnSignUp: config.auth.requireEmailVerification,
      autoSignInAfterVerification: true,
      expiresIn: config.auth.emailLinkTtlSeconds,
    },
    socialProviders: {
      ...(google ? { google: { clientId: google.clientId, clientSecret: google.clientSecret } } : {}),
      ...(github ? { github: { clientId: github.clientId, clientSecret: github.clientSecret } } : {}),
    },
    session: { expiresIn: config.auth.sessionDuration, updateAge: Math.min(config.auth.sessionDuration, 60 * 60 * 24) },
    user: {
      // A verified user confirms from the old address first; the new one is then verified.
      changeEmail: { enabled: true, sendChangeEmailConfirmation: mail.confirmEmailChange },
      additionalFields: {
        role: { type: 'string', input: false, required: false, defaultValue: 'customer' },
        organizationId: { type: 'string', input: false, required: false },
      },
    },
    databaseHooks: {
      user: {
        create: {
          before: async (user) => {
            const target = signUpTarget.getStore();
            if (!target) throw new Error('sign-up outside an organization context');
            return { data: { ...user, organizationId: target.organizationId, role: target.role ?? 'customer' } };
          },
          // A customer record per customer sign-up (event customers.create).
          after: async (user) => options.users.created(db, user as never),
        },
        // Email verified (or changed and verified): claim guest orders placed with that email.
        update: { after: async (user) => options.users.updated(db, user as never) },
      },
    },
    advanced: {
      cookiePrefix: config.auth.cookiePrefix,
      useSecureCookies: secure,
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', secure },
      database: { generateId: () => randomUUID() },
      // better-auth turns its origin/CSRF check off when NODE_ENV=test; the suite must run the
      // production check (http/origin-check.ts adapts credential-less clients to it).
      disableOriginCheck: false,
    },
    logger: { disabled: config.env === 'test' },
    // An unexpected error inside an identity endpoint (the database unreachable, a bug) is
    // rethrown to the HTTP layer instead of becoming better-call's bodiless 500 and a console
    // line: there it is a 503 SERVICE_UNAVAILABLE when the database is down and a logged,
    // enveloped 500 otherwise, like every other route. APIErrors (4xx) still answer as before.
    onAPIError: { throw: true },
    telemetry: { enabled: false },
    plugins: [
      bearer(),
      apiKey(apiKeyConfigurations(config)),
      ...(config.auth.twoFactor.enabled
        ? [twoFactor({ issuer: config.auth.twoFactor.issuer ?? 'commerce', accountLockout: { enabled: true, maxFailedAttempts: 5, durationSeconds: 15 * 60 } })]
        : []),
    ],
  });
}

export type Auth = ReturnType<typeof createAuth>;

/** The permission list of an API-key scope, as config declares it now. */
export function scopePermissions(config: Config, scope: string): string[] | null {
  const declared = config.apiKeyScopes[scope];
  return declared ? permissionsFromMap(declared.permissions) : null;
}

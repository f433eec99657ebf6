// The typed configuration: one place for every default. Environment variables fill the
// operational keys (see env.ts); a config module (commerce.config.ts / COMMERCE_CONFIG) fills the
// rest. Plugins are functions config → config, applied in list order.
import { z } from 'zod';

/** A permission string: `module:action` or `module:action:scope`, or the `*:*` wildcard. */
export const permissionString = z.string().regex(/^(\*:\*|[a-z][a-z0-9_-]*:(\*|[a-z][a-z0-9_-]*)(:[a-z][a-z0-9_-]*)?)$/, 'must look like module:action[:scope]');

const apiKeyScope = z.object({
  prefix: z.string().min(1).max(32),
  description: z.string().default(''),
  /** module → actions, e.g. { catalog: ['read'], '*': ['*'] } */
  permissions: z.record(z.string(), z.array(z.string())),
  /** Bounds in days (fractions allowed), as better-auth's API-key plugin takes them. */
  keyExpiration: z.object({ minExpiresIn: z.number().positive().optional(), maxExpiresIn: z.number().positive().optional() }).optional(),
});
export type ApiKeyScope = z.infer<typeof apiKeyScope>;

export const DEFAULT_ROLES: Record<string, string[]> = {
  owner: ['*:*'],
  admin: ['*:*'],
  staff: [
    'catalog:create',
    'catalog:update',
    'catalog:read',
    'catalog:read:unpublished',
    'inventory:adjust',
    'inventory:read',
    'orders:create',
    'orders:create:on-behalf',
    'orders:read',
    'orders:update',
    'payments:manage',
    'customers:read',
    'cart:create',
    'cart:update',
    'shipping:read',
    'giftcards:read',
    'giftcards:manage',
    'storecredit:read',
    'storecredit:manage',
    'returns:read',
    'returns:create',
    'returns:update',
    'drafts:manage',
  ],
  customer: [
    'catalog:read',
    'cart:create',
    'cart:read',
    'cart:update',
    'orders:create',
    'orders:read:own',
    'customers:read:self',
    'customers:update:self',
    'returns:read:own',
    'returns:create:own',
  ],
};

export const DEFAULT_API_KEY_SCOPES: Record<string, ApiKeyScope> = {
  admin: {
    prefix: 'cs_admin_',
    description: 'Full access to the organization (*:*). For back-office integrations and CI.',
    permissions: { '*': ['*'] },
    keyExpiration: { minExpiresIn: 1, maxExpiresIn: 365 },
  },
  storefront: {
    prefix: 'cs_store_',
    description:
      'What a storefront needs: read the catalog, prices and availability, build carts and check out; ' +
      "with a signed-in shopper beside it, also that shopper's own orders and profile (the :own/:self grants need the session).",
    permissions: {
      catalog: ['read'],
      cart: ['create', 'read', 'update'],
      orders: ['create', 'read:own'],
      promotions: ['read'],
      pricing: ['read'],
      inventory: ['read'],
      customers: ['read:self', 'update:self'],
      returns: ['read:own', 'create:own'],
    },
    keyExpiration: { minExpiresIn: 1, maxExpiresIn: 365 },
  },
};

/** A URL origin exactly: `https://shop.example.com` or `http://localhost:5173`, without a path. */
function isOrigin(value: string): boolean {
  try {
    return new URL(value).origin === value.replace(/\/$/, '');
  } catch {
    return false;
  }
}

/** storefront.availabilityCeiling's default (see there for why). */
export const DEFAULT_AVAILABILITY_CEILING = 50;

const rateLimitBudget = z.object({ points: z.number().int().positive(), durationSeconds: z.number().int().positive() });

export const configSchema = z
  .object({
    env: z.enum(['development', 'production', 'test']).default('development'),
    port: z.number().int().min(0).max(65535).default(3000),
    host: z.string().default('0.0.0.0'),
    /** Public origin of this server; decides `__Secure-` cookies and better-auth's base URL. */
    baseUrl: z.string().url().optional(),
    databaseUrl: z.string().optional(),
    dataDir: z.string().default('./.data'),
    redisUrl: z.string().optional(),
    /**
     * PostgreSQL reached without a pooler in between (DATABASE_DIRECT_URL), for what needs a
     * session of its own: LISTEN (job wake-ups, cache invalidation) and migrations' advisory
     * locks. Unset: DATABASE_URL (README: Scaling → PgBouncer).
     */
    databaseDirectUrl: z.string().optional(),
    /** Read replicas and read-your-writes (README: Scaling → Read replicas). */
    database: z
      .object({
        /**
         * Streaming replicas (DATABASE_REPLICA_URLS, comma-separated): catalog, search, analytics
         * and report reads go to them round robin, health-checked, the primary when none is up.
         */
        replicaUrls: z.array(z.string().min(1)).default([]),
        /** After a caller's own write, its reads go to the primary for this long (replicas lag). */
        readYourWritesMs: z.number().int().nonnegative().default(2000),
        /** How often each replica is checked (reachable, still a standby). */
        replicaHealthIntervalMs: z.number().int().positive().default(1000),
        /**
         * A replica whose replay lag (measured by each health check) exceeds this is left out
         * until it catches up: catalog reads may be this stale at most, give or take one check.
         */
        replicaMaxLagMs: z.number().int().nonnegative().default(10_000),
        /** A replica that does not give a connection within this long fails the read over to the primary. */
        replicaConnectTimeoutMs: z.number().int().positive().default(1000),
      })
      .prefault({}),
    /**
     * The shared response cache of storefront catalog reads (README: Scaling → Response cache).
     * RESPONSE_CACHE=off disables it. Entries live in this process (maxEntries, LRU) and, with
     * REDIS_URL, in Redis shared by every API process; both are dropped for an organization by
     * its catalog, pricing, inventory and settings changes (LISTEN/NOTIFY), ttlSeconds bounds
     * the rest (a notification lost while the listener reconnects).
     */
    cache: z
      .object({
        enabled: z.boolean().default(true),
        ttlSeconds: z.number().int().positive().default(60),
        maxEntries: z.number().int().positive().default(5000),
        /** Redis key prefix, so several deployments (or test runs) can share one Redis. */
        keyPrefix: z.string().min(1).default('rc'),
      })
      .prefault({}),
    logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    bodyLimitBytes: z
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    /**
     * On SIGTERM the API answers readiness 503 and keeps accepting for this long, so a load
     * balancer stops sending before the listener closes (SHUTDOWN_DRAIN_MS; README: Shutdown).
     */
    shutdownDrainMs: z.number().int().nonnegative().default(5000),
    /**
     * A request body must arrive within this long of the request, or the answer is 408 and the
     * connection closes (Node alone would hold a trickling body for its 300 s requestTimeout).
     */
    bodyReadTimeoutMs: z.number().int().positive().default(30_000),
    /**
     * Execution slots (README: Scaling → Execution slots): an operation costing at least `minCost`
     * (EXECUTION_SLOTS_MIN_COST; the weights of graphql.maxCost: the list of 20 with includes
     * costs ~600 over GraphQL and ~2,800 over REST, a read by id 1) runs only when one of `max`
     * slots is free (EXECUTION_SLOTS; 0: no limit) and otherwise waits in arrival order; cheaper
     * operations never wait. The default is the database pool's size. An operation still running
     * after `holdMs` (EXECUTION_SLOT_HOLD_MS) gives its slot back, so slow ones never block the queue.
     */
    executionSlots: z
      .object({
        max: z.number().int().nonnegative().default(10),
        minCost: z.number().int().positive().default(100),
        holdMs: z.number().int().positive().default(1000),
      })
      .prefault({}),
    /**
     * GET /metrics (README: Operating → Metrics). `token` (METRICS_TOKEN): served on the API port
     * to `Authorization: Bearer <token>` only. `port` (METRICS_PORT): served on its own listener
     * bound to 127.0.0.1 (the worker's only way). Neither: off in production; in development and
     * test served on the API port without a token (a local Prometheus scrapes it as is).
     * `enabled: false` (METRICS_ENABLED=false) turns metrics off whatever else is set.
     * `sqlStatementsSampleRate` (METRICS_SQL_STATEMENTS_SAMPLE_RATE): the share of requests whose
     * SQL statements are counted for commerce_http_request_sql_statements, besides each route's
     * first request (default 0.01; 1 counts every request, 0 none). Counting costs every concurrent request
     * Node's promise hooks while a counted one is in flight, so below 1 counted requests are in flight
     * at most 5% of the time (observability/request-observer.ts).
     */
    metrics: z
      .object({
        enabled: z.boolean().optional(),
        token: z.string().min(16).optional(),
        port: z.number().int().min(0).max(65535).optional(),
        sqlStatementsSampleRate: z.number().min(0).max(1).optional(),
      })
      .default({}),
    auth: z
      .object({
        secret: z.string().min(32).optional(),
        cookiePrefix: z.string().default('commerce'),
        /** Session lifetime in seconds. */
        sessionDuration: z
          .number()
          .int()
          .positive()
          .default(60 * 60 * 24 * 7),
        requireEmailVerification: z.boolean().default(false),
        trustedOrigins: z.array(z.string()).default([]),
        /**
         * Two-factor sign-in (TOTP, backup codes) through better-auth's plugin. Users enrol at
         * /api/auth/two-factor/enable. A role in requiredForRoles must enrol: until it has, its
         * sessions reach only the enrolment endpoints (403 TWO_FACTOR_REQUIRED elsewhere).
         */
        twoFactor: z
          .object({
            enabled: z.boolean().default(false),
            requiredForRoles: z.array(z.string()).default([]),
            /** Shown in authenticator apps; defaults to the store name "commerce". */
            issuer: z.string().optional(),
          })
          .prefault({}),
        /** OAuth sign-in providers by client id and secret (google and github are shown in the spec). */
        socialProviders: z
          .object({
            google: z.object({ clientId: z.string().min(1), clientSecret: z.string().min(1) }).optional(),
            github: z.object({ clientId: z.string().min(1), clientSecret: z.string().min(1) }).optional(),
          })
          .prefault({}),
        /** Lifetime of password-reset and email-verification links, in seconds. */
        emailLinkTtlSeconds: z
          .number()
          .int()
          .positive()
          .default(60 * 60),
        roles: z.record(z.string(), z.array(permissionString)).default(DEFAULT_ROLES),
        /** Removed settings: present at all means boot fails (see assertNoDevKey). */
        enableDevKey: z.unknown().optional(),
        devKey: z.unknown().optional(),
      })
      .prefault({}),
    apiKeys: z.object({ enabled: z.boolean().default(true) }).prefault({}),
    /**
     * Browser origins answered with CORS headers (CORS_ORIGINS, comma-separated), e.g. a storefront
     * at http://localhost:5173. auth.trustedOrigins are merged in (a cookie-trusted page must pass
     * CORS too); an origin only here may call with x-api-key or a bearer token, not write with the
     * session cookie.
     */
    cors: z
      .object({ origins: z.array(z.string().refine(isOrigin, 'must be an origin such as https://shop.example.com (scheme, host, optional port; no path)')).default([]) })
      .prefault({}),
    /** What storefront callers (catalog readers) see of stock: ProductVariant availability. */
    storefront: z
      .object({
        /**
         * availableQuantity is capped here: exact stock counts are business information (scraped,
         * they tell a competitor sales velocity and restocks), and a storefront needs only "in
         * stock", "only 3 left" and a quantity picker's upper bound. Figures above the ceiling
         * stay equal as stock moves, so shared caches keep their answers.
         */
        availabilityCeiling: z.number().int().positive().default(DEFAULT_AVAILABILITY_CEILING),
      })
      .prefault({}),
    apiKeyScopes: z.record(z.string().regex(/^[a-z][a-z0-9_-]*$/), apiKeyScope).default(DEFAULT_API_KEY_SCOPES),
    /** Functions config → config, applied in list order at load (see src/plugins). */
    plugins: z.array(z.custom<(config: never) => unknown>((v) => typeof v === 'function')).default([]),
    /** Maps a request to an organization id (or null). Single-store installs leave it unset. */
    storeResolver: z.custom<(request: Request) => string | null | Promise<string | null>>((v) => typeof v === 'function').optional(),
    strictOrgResolution: z.boolean().default(false),
    rateLimit: z
      .object({
        enabled: z.boolean().default(true),
        /** Redis key prefix, so several deployments can share one Redis. */
        keyPrefix: z.string().min(1).default('rl'),
        /** Per API key or user: a storefront server renders for many shoppers through one key. */
        authenticated: rateLimitBudget.default({ points: 6000, durationSeconds: 60 }),
        /** Per client address. */
        anonymous: rateLimitBudget.default({ points: 300, durationSeconds: 60 }),
        /**
         * Attempts per email address at sign-in, sign-up and the mail-sending endpoints, and per
         * user at the endpoints that check the current password (change-password, two-factor).
         */
        signIn: rateLimitBudget.default({ points: 10, durationSeconds: 300 }),
        /**
         * Sign-in, sign-up, password-reset and verification-mail requests per client address,
         * whatever emails they name (password spraying across many accounts). A server that
         * relays its shoppers' sign-ins from one address needs this raised.
         */
        authAddress: rateLimitBudget.default({ points: 30, durationSeconds: 300 }),
        /**
         * Attempts at guessable values (promotion-code validation) per session or client
         * address; a request may hold one attempt (aliases do not multiply it). API keys are
         * bounded by their request budget instead.
         */
        guess: rateLimitBudget.default({ points: 60, durationSeconds: 60 }),
        /**
         * A GraphQL operation is charged one point per this many units of its cost (the same
         * weights as graphql.maxCost), at least one: aliases and wide selections cost what they do.
         */
        graphqlCostPerPoint: z.number().int().positive().default(100),
      })
      .prefault({}),
    graphql: z
      .object({
        maxDepth: z.number().int().positive().default(12),
        maxAliases: z.number().int().positive().default(30),
        maxCost: z.number().int().positive().default(50_000),
        maxTokens: z.number().int().positive().default(5000),
        /** Serve GraphiQL to browsers at /graphql. Default: on, except in production. */
        graphiql: z.boolean().optional(),
        /**
         * Answer introspection (__schema, __type) for anonymous callers and customers. When off,
         * only API keys and staff sessions may introspect. Default: on, except in production.
         */
        publicIntrospection: z.boolean().optional(),
        /** "Did you mean ...?" hints in validation errors. Default: on, except in production. */
        suggestions: z.boolean().optional(),
        /**
         * Compile documents that repeat (every REST route, persisted and recurring queries) with
         * graphql-jit instead of interpreting them with graphql-js (src/graphql/jit.ts).
         */
        jit: z.boolean().default(true),
        /**
         * Run POSTs whose document Yoga has already validated outside Yoga's pipeline, with the
         * same guards, masking and result processing (src/graphql/fast-lane.ts). Off: every
         * /graphql request goes through Yoga.
         */
        fastLane: z.boolean().default(true),
      })
      .prefault({}),
    /**
     * How long finished work is kept: dispatched outbox events, succeeded jobs and webhook
     * delivery attempts older than maxAgeDays are deleted by every worker each intervalMs (and by
     * the `retention/prune` task for cron-only deployments), so these tables stay bounded.
     */
    retention: z
      .object({
        maxAgeDays: z.number().int().positive().default(30),
        intervalMs: z
          .number()
          .int()
          .positive()
          .default(60 * 60 * 1000),
      })
      .prefault({}),
    jobs: z
      .object({
        /** Run the job worker inside the server too, polling every intervalMs (LISTEN/NOTIFY wakes it sooner). */
        autorun: z.object({ intervalMs: z.number().int().positive() }).optional(),
        /** Queues the worker (and autorun) serve. */
        queues: z.array(z.string().min(1)).min(1).default(['default']),
        /** Jobs one worker process runs at the same time. */
        concurrency: z.number().int().positive().default(10),
        /**
         * Jobs a worker claims ahead per queue, in one statement, and hands to its slots as they
         * free up (running ones included). At or below `concurrency` (the default, 0) it claims
         * only for free slots. Raise it (e.g. 500) for many short jobs: fewer claim round trips.
         * Claimed-ahead jobs count an attempt and heartbeat like running ones; a stopping
         * worker hands them back at once.
         */
        localQueueSize: z.number().int().nonnegative().default(0),
        /** Poll interval of `npm run worker`; notifications usually wake it first. */
        pollIntervalMs: z.number().int().positive().default(5000),
        /** A running job's heartbeat period; the reaper takes back jobs silent for staleAfterMs. */
        heartbeatIntervalMs: z.number().int().positive().default(10_000),
        staleAfterMs: z.number().int().positive().default(60_000),
        reapIntervalMs: z.number().int().positive().default(30_000),
        /** On SIGTERM, how long running jobs may finish before they are released back to pending. */
        shutdownGraceMs: z.number().int().nonnegative().default(20_000),
        /** Claim order: a field and direction, or a deterministic comparator (default createdAt asc). */
        processingOrder: z
          .union([
            z.object({ field: z.enum(['createdAt', 'updatedAt', 'attempts', 'taskSlug']), direction: z.enum(['asc', 'desc']).default('asc') }),
            z.custom<(a: JobOrderView, b: JobOrderView) => number>((v) => typeof v === 'function'),
          ])
          .optional(),
      })
      .prefault({}),
    webhooks: z
      .object({
        /**
         * Deliver to private, loopback and link-local addresses. Unset: allowed only when env is
         * development or test (see allowsPrivateWebhookTargets).
         */
        allowPrivateTargets: z.boolean().optional(),
        /** One delivery attempt's time limit. */
        timeoutMs: z.number().int().positive().default(10_000),
        /** Attempts per delivery (counting the first) and the exponential backoff's first delay. */
        maxAttempts: z.number().int().positive().default(8),
        retryDelayMs: z.number().int().positive().default(30_000),
      })
      .prefault({}),
    /**
     * Tax provider (src/modules/tax/provider.ts). `table` (default): tax classes and zone rates.
     * `taxjar`: TaxJar's SalesTax API (tax.taxjar.apiToken or TAXJAR_API_TOKEN); a failure at
     * checkout is 503 and nothing is written.
     */
    tax: z
      .object({
        provider: z.enum(['table', 'taxjar']).default('table'),
        taxjar: z
          .object({
            apiUrl: z.string().url().default('https://api.taxjar.com/v2'),
            apiToken: z.string().min(1).optional(),
            /** How long checkout waits for TaxJar before answering 503. */
            timeoutMs: z.number().int().positive().default(5_000),
          })
          .prefault({}),
      })
      .prefault({}),
    /**
     * Carrier rates for shipping methods with a `carrier` calculator (src/modules/shipping/carrier).
     * `shippo`: Shippo's API (SHIPPO_API_URL, SHIPPO_API_TOKEN). A rate answer is kept per cart and
     * request for cacheTtlMs; a failure or a wait beyond timeoutMs prices with the fallback.
     */
    shipping: z
      .object({
        carrier: z
          .object({
            timeoutMs: z.number().int().positive().default(3_000),
            cacheTtlMs: z
              .number()
              .int()
              .nonnegative()
              .default(10 * 60_000),
            cacheSize: z.number().int().positive().default(5_000),
            shippo: z.object({ apiUrl: z.string().url().default('https://api.goshippo.com'), apiToken: z.string().min(1).optional() }).prefault({}),
          })
          .prefault({}),
      })
      .prefault({}),
    /**
     * Payment adapter (src/modules/payments). `auto`: Stripe when a secret key is set
     * (payments.stripeSecretKey or STRIPE_SECRET_KEY), otherwise the offline test adapter, which
     * production refuses unless chosen explicitly with `offline`.
     */
    payments: z
      .object({
        /** The default provider: auto, stripe, offline or another registered provider (payments/provider.ts). */
        provider: z.string().min(1).max(50).default('auto'),
        /** Further providers a checkout may name in `paymentProvider` (each needs its own configuration). */
        enabled: z.array(z.string().min(1).max(50)).max(10).default([]),
        stripeSecretKey: z.string().min(1).optional(),
        /** A Stripe-compatible API instead of api.stripe.com (STRIPE_API_BASE; stripe-mock, a test fake). */
        stripeApiBase: z.string().url().optional(),
        /**
         * Signing secret of POST /api/payments/webhook (STRIPE_WEBHOOK_SECRET). Required with Stripe;
         * the offline adapter generates one under DATA_DIR in development when unset.
         */
        webhookSecret: z.string().min(1).optional(),
        /** How long one call to the provider may take before checkout gives up on it. */
        timeoutMs: z.number().int().positive().default(20_000),
        /**
         * Adyen's Checkout API (src/modules/payments/providers/adyen). Enabled when apiKey,
         * merchantAccount and hmacKey are all set (ADYEN_API_KEY, ADYEN_MERCHANT_ACCOUNT,
         * ADYEN_HMAC_KEY); apiBase (ADYEN_API_BASE) defaults to the test endpoint — live accounts
         * use https://{PREFIX}-checkout-live.adyenpayments.com/checkout/v71.
         */
        adyen: z
          .object({
            apiKey: z.string().min(1).optional(),
            merchantAccount: z.string().min(1).optional(),
            /** The notification HMAC key from the Customer Area, hex as Adyen shows it. */
            hmacKey: z
              .string()
              .regex(/^(?:[0-9a-fA-F]{2})+$/, 'the HMAC key is hex (as the Customer Area shows it)')
              .optional(),
            apiBase: z.string().url().default('https://checkout-test.adyen.com/v71'),
          })
          .prefault({}),
      })
      .prefault({}),
    /**
     * Outgoing mail (invoice emails). With an SMTP URL (mail.smtpUrl or SMTP_URL) mail goes out
     * through nodemailer; without one each message is written as JSON under DATA_DIR/mail.
     */
    mail: z
      .object({
        smtpUrl: z.string().min(1).optional(),
        from: z.string().min(3).optional(),
      })
      .prefault({}),
    /** Media uploads (src/modules/media): size limit, accepted types, signed URL lifetime. */
    media: z
      .object({
        /** Largest accepted file in bytes (MEDIA_MAX_UPLOAD_BYTES); larger is 413, cut off while streaming. */
        maxUploadBytes: z
          .number()
          .int()
          .positive()
          .default(10 * 1024 * 1024),
        /** MIME types accepted, as detected from the bytes. SVG is off by default: it can carry script. */
        allowedTypes: z.array(z.string().min(3)).default(['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif', 'application/pdf']),
        /** Lifetime of signed URLs (GET /media/:id?signed=true and the 302 target). */
        signedUrlTtlSeconds: z
          .number()
          .int()
          .min(1)
          .max(7 * 24 * 3600)
          .default(3600),
        /**
         * Where the bytes live (MEDIA_STORAGE). `local`: files under DATA_DIR/media, served by the
         * API through HMAC-signed URLs. `s3`: an S3-compatible bucket (AWS S3, MinIO, R2, ...);
         * GET /media/:id then redirects to a presigned GET of the bucket.
         */
        storage: z.enum(['local', 's3']).default('local'),
        /** The bucket of `storage: 's3'` (S3_BUCKET, S3_REGION, S3_ENDPOINT, S3_FORCE_PATH_STYLE). */
        s3: z
          .object({
            bucket: z.string().min(3).max(63).optional(),
            region: z.string().min(1).default('us-east-1'),
            /** An S3-compatible server's URL (MinIO, R2, ...); unset = AWS. */
            endpoint: z.url().optional(),
            /** Path-style URLs (`endpoint/bucket/key`), which most S3-compatible servers need. */
            forcePathStyle: z.boolean().default(false),
            /** Static credentials; unset = the AWS SDK's default chain (AWS_ACCESS_KEY_ID, profiles, instance roles). */
            credentials: z.object({ accessKeyId: z.string().min(1), secretAccessKey: z.string().min(1), sessionToken: z.string().min(1).optional() }).optional(),
            /** Prefix of every object key, e.g. `media/` when the bucket is shared. */
            keyPrefix: z
              .string()
              .max(200)
              .regex(/^[A-Za-z0-9!_.*'()/-]*$/, 'safe S3 key characters only')
              .default(''),
          })
          .prefault({}),
      })
      .prefault({})
      .superRefine((media, ctx) => {
        if (media.storage === 's3' && !media.s3.bucket) ctx.addIssue({ code: 'custom', path: ['s3', 'bucket'], message: "media.storage 's3' needs a bucket (S3_BUCKET)" });
      }),
    /**
     * The search engine (src/modules/search). `postgres` (default): full-text search in the
     * database, kept current by triggers. `meilisearch`: an external Meilisearch server, kept in
     * sync by jobs fed from the catalog's outbox events (SEARCH_ENGINE, MEILISEARCH_HOST,
     * MEILISEARCH_API_KEY).
     */
    search: z
      .object({
        engine: z.enum(['postgres', 'meilisearch']).default('postgres'),
        meilisearch: z
          .object({
            host: z.url().optional(),
            apiKey: z.string().min(1).optional(),
            /** One index for every organization: each document carries organizationId and every search filters by it. */
            indexUid: z
              .string()
              .regex(/^[A-Za-z0-9_-]{1,400}$/)
              .default('catalog'),
            /** How long one call to the server may take. */
            timeoutMs: z.number().int().positive().default(5_000),
          })
          .prefault({}),
      })
      .prefault({})
      .superRefine((search, ctx) => {
        if (search.engine === 'meilisearch' && !search.meilisearch.host)
          ctx.addIssue({ code: 'custom', path: ['meilisearch', 'host'], message: "search.engine 'meilisearch' needs a host (MEILISEARCH_HOST)" });
      }),
  })
  .superRefine((config, ctx) => {
    const seen = new Map<string, string>();
    for (const [name, scope] of Object.entries(config.apiKeyScopes)) {
      const other = seen.get(scope.prefix);
      if (other)
        ctx.addIssue({
          code: 'custom',
          path: ['apiKeyScopes', name, 'prefix'],
          message: `prefix ${scope.prefix} is already used by scope ${other}: a key's prefix names its scope`,
        });
      seen.set(scope.prefix, name);
    }
    if (config.auth.enableDevKey !== undefined || config.auth.devKey !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['auth', config.auth.enableDevKey !== undefined ? 'enableDevKey' : 'devKey'],
        message:
          'auth.enableDevKey and auth.devKey were removed: there is no built-in development key. ' +
          'Delete the setting and mint a key with `npx commerce api-keys create --scope admin`.',
      });
    }
  });

export type ConfigInput = z.input<typeof configSchema>;

/** What a processingOrder comparator sees of a claimable job. */
export interface JobOrderView {
  id: string;
  taskSlug: string;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
  input: unknown;
}

export function allowsPrivateWebhookTargets(config: Pick<Config, 'env' | 'webhooks'>): boolean {
  return config.webhooks.allowPrivateTargets ?? (config.env === 'development' || config.env === 'test');
}
export type Config = z.output<typeof configSchema>;

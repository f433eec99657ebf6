// LISTEN/NOTIFY wake-ups. Triggers (see the jobs migration) notify `commerce_jobs` when a job
// becomes runnable and `commerce_events` when an outbox event is written, at commit. A worker
// holds one dedicated connection (not from Prisma's pool: LISTEN belongs to a session) and wakes
// its loop on every notification. The poll interval stays as the safety net: a notification sent
// while this connection was down is lost, so every (re)connect also wakes the loop once.
import pg from 'pg';
import type { Logger } from '../logger.js';

export const JOBS_CHANNEL = 'commerce_jobs';
export const EVENTS_CHANNEL = 'commerce_events';

export interface Listener {
  close(): Promise<void>;
}

const RECONNECT_MIN_MS = 250;
const RECONNECT_MAX_MS = 10_000;

export function listen(
  databaseUrl: string,
  channels: string[],
  onNotify: (channel: string, payload: string) => void,
  logger: Logger,
  applicationName = 'commerce-jobs-listener',
): Listener {
  let client: pg.Client | null = null;
  let closed = false;
  let delay = RECONNECT_MIN_MS;
  let retryTimer: NodeJS.Timeout | null = null;

  function scheduleReconnect(): void {
    if (closed || retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      void connect();
    }, delay);
    retryTimer.unref();
    delay = Math.min(delay * 2, RECONNECT_MAX_MS);
  }

  async function connect(): Promise<void> {
    const next = new pg.Client({ connectionString: databaseUrl, application_name: applicationName });
    next.on('notification', (message) => onNotify(message.channel, message.payload ?? ''));
    next.on('error', (error) => {
      logger.warn({ err: error }, 'job listener connection failed; reconnecting');
      if (client === next) client = null;
      next.end().catch(() => undefined);
      scheduleReconnect();
    });
    try {
      await next.connect();
      for (const channel of channels) await next.query(`LISTEN ${next.escapeIdentifier(channel)}`);
      if (closed) {
        await next.end();
        return;
      }
      client = next;
      delay = RECONNECT_MIN_MS;
      onNotify('', ''); // catch up on anything missed while not listening
    } catch (error) {
      logger.warn({ err: error }, 'job listener could not connect; retrying');
      next.end().catch(() => undefined);
      scheduleReconnect();
    }
  }

  void connect();
  return {
    async close() {
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      const current = client;
      client = null;
      await current?.end().catch(() => undefined);
    },
  };
}

// GET /api/health: `{ status, version }`, or 503 with database "unreachable" when a probe
// query fails (bounded by a timeout so a hung database cannot hang the probe).
import type { Db } from '../db/client.js';

const PROBE_TIMEOUT_MS = 2000;

export async function healthResponse(db: Db, version: string): Promise<Response> {
  const probe = db.$queryRaw`select 1`;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('database probe timed out')), PROBE_TIMEOUT_MS);
  });
  try {
    await Promise.race([probe, timeout]);
    return Response.json({ status: 'ok', version });
  } catch {
    probe.catch(() => undefined);
    return Response.json({ status: 'error', version, database: 'unreachable' }, { status: 503 });
  } finally {
    clearTimeout(timer);
  }
}

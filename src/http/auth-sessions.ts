// better-auth's list-sessions answers every session of the caller with its bearer `token`: one
// session read once (a token lifted from one device, a shared computer left signed in) handed
// over the bearer tokens of all the user's other devices, which outlive a sign-out of the first.
// The list now shows each session's `id` and no token, and revoke-session takes that `id` (its
// `token` form still works for a token the caller already holds).
import type { Db } from '../db/client.js';
import { AppError } from '../errors.js';

const LIST = '/api/auth/list-sessions';
const REVOKE = '/api/auth/revoke-session';

/** The list-sessions answer without bearer tokens; other answers unchanged. */
export async function withoutSessionTokens(path: string, response: Response): Promise<Response> {
  if (path !== LIST || response.status !== 200) return response;
  const sessions = (await response.json()) as unknown;
  const listed = Array.isArray(sessions) ? sessions.map((s) => (s && typeof s === 'object' ? { ...s, token: undefined } : s)) : sessions;
  const headers = new Headers(response.headers);
  headers.delete('content-length');
  return new Response(JSON.stringify(listed), { status: 200, headers });
}

/**
 * revoke-session `{ id }`: the caller's own session of that id, handed to better-auth as
 * `{ token }`. 404 when the caller has no session of that id. Other requests pass unchanged.
 */
export async function revokeSessionById(path: string, request: Request, deps: { db: Db; callerUserId(request: Request): Promise<string | null> }): Promise<Request> {
  if (path !== REVOKE || request.method !== 'POST') return request;
  const body = (await request
    .clone()
    .json()
    .catch(() => null)) as { id?: unknown; token?: unknown } | null;
  if (!body || typeof body.id !== 'string' || body.token !== undefined) return request;
  const userId = await deps.callerUserId(request);
  if (!userId) return request; // better-auth answers 401
  const session = await deps.db.session.findFirst({ where: { id: body.id, userId }, select: { token: true } });
  if (!session) throw new AppError('NOT_FOUND', 'You have no session with this id');
  const headers = new Headers(request.headers);
  headers.set('content-type', 'application/json');
  headers.delete('content-length');
  return new Request(request.url, { method: 'POST', headers, body: JSON.stringify({ token: session.token }), signal: request.signal });
}

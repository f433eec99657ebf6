// better-auth answers errors as `{ code, message }`; the contract's envelope is
// `{ error: { code, message, details? } }`. Rewrap them here, keeping better-auth's own code
// (USER_ALREADY_EXISTS, INVALID_EMAIL_OR_PASSWORD, ...) in details.reason.
import { STATUS_BY_CODE, type ErrorCode } from '../errors.js';
import { errorResponse } from './rest-errors.js';

// First code per status wins: 422 is VALIDATION_FAILED, not CHECKOUT_FAILED.
const CODE_BY_STATUS = new Map<number, ErrorCode>();
for (const [code, status] of Object.entries(STATUS_BY_CODE) as Array<[ErrorCode, number]>) if (!CODE_BY_STATUS.has(status)) CODE_BY_STATUS.set(status, code);

export async function wrapAuthResponse(response: Response): Promise<Response> {
  if (response.status < 400 || !response.headers.get('content-type')?.includes('application/json')) return response;
  let body: { code?: string; message?: string };
  try {
    body = (await response.clone().json()) as typeof body;
  } catch {
    return response;
  }
  // A taken email is a conflict with existing state, as a duplicate slug is.
  const status = body.code?.startsWith('USER_ALREADY_EXISTS') ? 409 : response.status === 400 ? 422 : response.status;
  const code = CODE_BY_STATUS.get(status) ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_REQUEST');
  const message = body.message ?? 'Authentication request failed';
  // VALIDATION_FAILED's details are a field list everywhere (error-codes.ts); other codes take
  // better-auth's code as `reason`.
  const details = !body.code ? undefined : code === 'VALIDATION_FAILED' ? [{ field: 'body', message, reason: body.code }] : { reason: body.code };
  const wrapped = errorResponse(status, code, message, details);
  for (const [name, value] of response.headers) if (name.toLowerCase() !== 'content-type' && name.toLowerCase() !== 'content-length') wrapped.headers.append(name, value);
  return wrapped;
}

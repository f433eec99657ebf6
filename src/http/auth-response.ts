// better-auth answers errors as `{ code, message }`; the contract's envelope is
// `{ error: { code, message, details? } }`. Rewrap them here, keeping better-auth's own code
// (USER_ALREADY_EXISTS, INVALID_EMAIL_OR_PASSWORD, ...) in details.reason.
import { STATUS_BY_CODE } from '../errors.js';
import { errorResponse } from './rest-errors.js';

// First code per status wins: 422 is VALIDATION_FAILED, not CHECKOUT_FAILED.
const CODE_BY_STATUS = new Map<number, string>();
for (const [code, status] of Object.entries(STATUS_BY_CODE)) if (!CODE_BY_STATUS.has(status)) CODE_BY_STATUS.set(status, code);

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
  const wrapped = errorResponse(status, code, body.message ?? 'Authentication request failed', body.code ? { reason: body.code } : undefined);
  for (const [name, value] of response.headers) if (name.toLowerCase() !== 'content-type' && name.toLowerCase() !== 'content-length') wrapped.headers.append(name, value);
  return wrapped;
}

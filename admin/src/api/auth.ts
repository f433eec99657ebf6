// better-auth's cookie session, over the same endpoints any browser client uses. Same origin:
// the browser sends Origin, which the server's origin check trusts (it is the server's own).
export type SignInOutcome = { kind: 'signedIn' } | { kind: 'twoFactor' } | { kind: 'error'; message: string };

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(path, { method: 'POST', credentials: 'include', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function messageOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: string }; message?: string } | null;
  return body?.error?.message ?? body?.message ?? `Sign-in failed (${response.status})`;
}

export async function signIn(email: string, password: string): Promise<SignInOutcome> {
  const response = await post('/api/auth/sign-in/email', { email, password });
  if (!response.ok) return { kind: 'error', message: await messageOf(response) };
  const body = (await response.json().catch(() => ({}))) as { twoFactorRedirect?: boolean };
  return body.twoFactorRedirect ? { kind: 'twoFactor' } : { kind: 'signedIn' };
}

/** Completes a two-factor sign-in with the authenticator's 6-digit code. */
export async function verifyTotp(code: string): Promise<SignInOutcome> {
  const response = await post('/api/auth/two-factor/verify-totp', { code });
  return response.ok ? { kind: 'signedIn' } : { kind: 'error', message: await messageOf(response) };
}

export async function signOut(): Promise<void> {
  await post('/api/auth/sign-out', {});
}

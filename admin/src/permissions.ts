// The server's rule (src/auth/permissions.ts), mirrored to decide what to show; the server still
// refuses what the caller may not do.
export function can(granted: readonly string[], required: string): boolean {
  if (granted.includes('*:*') || granted.includes(required)) return true;
  return granted.includes(`${required.split(':')[0]}:*`);
}

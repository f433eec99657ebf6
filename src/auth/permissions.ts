// Permission strings: `module:action` or `module:action:scope`. `*:*` grants everything and
// `module:*` every action of one module. A scoped permission is its own grant: holding
// `orders:read` does not imply `catalog:read:unpublished`-style extensions, and routes that
// accept a narrower variant (`orders:read:own`) say so explicitly.

export const WILDCARD = '*:*';

/**
 * Managing media: also what lets a caller see sold files in catalog answers (modules/media), so
 * the HTTP layer keeps such answers out of shared caches. Named here, below both.
 */
export const MEDIA_WRITE = 'media:write';

export function hasPermission(granted: readonly string[], required: string): boolean {
  if (granted.includes(WILDCARD) || granted.includes(required)) return true;
  const [module] = required.split(':');
  return granted.includes(`${module}:*`);
}

export function hasAnyPermission(granted: readonly string[], required: readonly string[]): boolean {
  return required.some((permission) => hasPermission(granted, permission));
}

/** `{ catalog: ['read'], '*': ['*'] }` (the API-key scope form) → `['catalog:read', '*:*']`. */
export function permissionsFromMap(map: Record<string, readonly string[]>): string[] {
  return Object.entries(map).flatMap(([module, actions]) => actions.map((action) => `${module}:${action}`));
}

export function rolePermissions(roles: Record<string, readonly string[]>, role: string): string[] {
  return [...(roles[role] ?? [])];
}

/**
 * The permissions both lists grant (a key and a session together: the user's ∩ the key's), exact
 * for hasPermission: `required` is granted by the result iff both lists grant it. Each entry of
 * one list that the other grants is kept, so wildcards narrow to the other side's entries
 * (`*:*` ∩ `catalog:read` = `catalog:read`; `orders:*` ∩ `orders:*` = `orders:*`).
 */
export function intersectPermissions(a: readonly string[], b: readonly string[]): string[] {
  const out = new Set<string>();
  for (const p of a) if (hasPermission(b, p)) out.add(p);
  for (const p of b) if (hasPermission(a, p)) out.add(p);
  return [...out];
}

/** A permission that names the caller's own records (`orders:read:own`, `customers:read:self`). */
export function isSelfPermission(permission: string): boolean {
  return /:(own|self)$/.test(permission);
}

export function withoutSelfPermissions(permissions: readonly string[]): string[] {
  return permissions.filter((p) => !isSelfPermission(p));
}

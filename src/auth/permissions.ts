// Permission strings: `module:action` or `module:action:scope`. `*:*` grants everything and
// `module:*` every action of one module. A scoped permission is its own grant: holding
// `orders:read` does not imply `catalog:read:unpublished`-style extensions, and routes that
// accept a narrower variant (`orders:read:own`) say so explicitly.

export const WILDCARD = '*:*';

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

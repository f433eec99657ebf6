// Recognizing the database errors that bad input can cause, so services turn them into contract
// errors (409, 404) instead of 500s. Prisma reports them as known request errors with a code.
import { Prisma } from '../generated/prisma/client.js';

function known(error: unknown): Prisma.PrismaClientKnownRequestError | null {
  return error instanceof Prisma.PrismaClientKnownRequestError ? error : null;
}

/** The columns or index a unique violation (P2002) names, as text; null for any other error. */
export function uniqueViolation(error: unknown): string | null {
  const err = known(error);
  if (err?.code !== 'P2002') return null;
  const meta = err.meta as { target?: unknown; driverAdapterError?: { cause?: { constraint?: { fields?: string[]; index?: string } } } } | undefined;
  const constraint = meta?.driverAdapterError?.cause?.constraint;
  const target = meta?.target ?? constraint?.fields ?? constraint?.index ?? '';
  return Array.isArray(target) ? target.join(',') : String(target);
}

/** A foreign key violation (P2003): the row refers to one that does not exist (or is referenced). */
export function isForeignKeyViolation(error: unknown): boolean {
  return known(error)?.code === 'P2003';
}

/** The row an update or delete named does not exist (P2025). */
export function isRecordNotFound(error: unknown): boolean {
  return known(error)?.code === 'P2025';
}

/**
 * The input fields a unique violation is about, for a 409's details: the violated columns
 * (snake_case in the database) as the API's camelCase field names, without the organization
 * column every tenant-scoped key starts with. Never the constraint's own name: that is schema
 * detail a client can neither act on nor should see.
 */
export function conflictingFields(unique: string): string[] {
  return unique
    .split(',')
    .map((column) => column.trim().replace(/^"|"$/g, ''))
    .filter((column) => column && column !== 'organization_id' && column !== 'organizationId' && !column.endsWith('_key') && !column.endsWith('_idx'))
    .map((column) => column.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));
}

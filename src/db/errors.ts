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

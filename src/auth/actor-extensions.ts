// Actor extensions: plugins add facts to a resolved actor (the marketplace links a user to its
// vendor: actor.vendorId). They run after the credential is verified, once per session check
// and once per API-key lookup (the key cache keeps the result). An extension should return at
// once for actors it does not concern, so that other callers pay no statement for it.
import type { Config } from '../config/index.js';
import type { Db } from '../db/client.js';
import type { Actor } from './actor-type.js';

// biome-ignore lint/suspicious/noConfusingVoidType: an extension written as `async () => {}` (nothing to add) returns Promise<void>
export type ActorExtension = (actor: Actor, ctx: { db: Db; config: Config }) => Promise<Partial<Pick<Actor, 'vendorId' | 'actsForVendor'>> | null | undefined | void>;

const extensions: Array<{ name: string; extend: ActorExtension }> = [];

/** Registers an extension (plugin activation); returns a function that removes it. */
export function registerActorExtension(name: string, extend: ActorExtension): () => void {
  const entry = { name, extend };
  extensions.push(entry);
  return () => {
    const i = extensions.indexOf(entry);
    if (i >= 0) extensions.splice(i, 1);
  };
}

export async function extendActor(actor: Actor, ctx: { db: Db; config: Config }): Promise<Actor> {
  let result = actor;
  for (const { extend } of extensions) {
    const extra = await extend(result, ctx);
    if (extra) result = { ...result, ...extra };
  }
  return result;
}

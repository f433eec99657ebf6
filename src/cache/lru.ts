// A bounded map that forgets the least recently used entry first (Map keeps insertion order:
// a hit is moved to the end by delete + set). Entries also carry an expiry, checked on read.
//
// A hit moves its entry only when it is in the older half of the order: a storefront asks for
// the same few pages thousands of times a second, and a delete + set per hit left V8's hash
// table full of deleted slots to compact (2% of a cached read's CPU). The order is then nearly
// LRU: an entry stays until at least `max` inserts and moves after its stamp, so one that was
// read survives at least max / 2 more of them, moved or not.

interface Slot<V> {
  value: V;
  /** The order stamp of its last insert or move. */
  stamp: number;
}

export class Lru<V extends { expiresAt: number }> {
  private readonly entries = new Map<string, Slot<V>>();
  private clock = 0;

  constructor(private readonly max: number) {}

  get(key: string, now = Date.now()): V | undefined {
    const slot = this.entries.get(key);
    if (!slot) return undefined;
    if (slot.value.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    if (this.clock - slot.stamp > this.max / 2) {
      this.entries.delete(key);
      slot.stamp = ++this.clock;
      this.entries.set(key, slot);
    }
    return slot.value;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, stamp: ++this.clock });
    if (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value;
      if (oldest !== undefined) this.entries.delete(oldest);
    }
  }

  /** Drops every entry whose key starts with the prefix (one organization's). */
  deletePrefix(prefix: string): void {
    for (const key of this.entries.keys()) if (key.startsWith(prefix)) this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

// The headers an answer goes out with, assembled in http/app.ts serve (request id, rate limit,
// CORS, then ETag and caching in http/conditional.ts) as a plain record.
//
// Why not a Headers object: the handler's answer may carry any of three Headers classes (Node's,
// the adapter's, fets' inside sofa), and wrapping one in another made every get/has/set walk both
// (a missing name twice over, building lowercase key lists on the way); the adapter then needed
// the result as a plain object again to write status and headers in one writeHead call. Here
// the answer's headers are copied once and every later step is a property access. With sofa's
// answers in the adapter's Response (rest-facade.ts adapterResponse): settings read B/A 0.95
// (bench/post-ab.ts, issue 30).
export interface HeaderSet {
  get(name: string): string | null;
  has(name: string): boolean;
  set(name: string, value: string): void;
  /** Adds to a header (`a, b`), as Headers.append does; set-cookie values stay separate. */
  append(name: string, value: string): void;
  delete(name: string): void;
}

export class AnswerHeaders implements HeaderSet {
  /** Lowercase name → value; set-cookie is kept apart, as it may repeat. */
  private readonly values: Record<string, string> = Object.create(null);
  private cookies: string[] = [];

  constructor(from: Headers) {
    from.forEach((value, name) => this.append(name, value));
  }

  get(name: string): string | null {
    const key = name.toLowerCase();
    if (key === 'set-cookie') return this.cookies.length ? this.cookies.join(', ') : null;
    return this.values[key] ?? null;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  set(name: string, value: string): void {
    const key = name.toLowerCase();
    if (key === 'set-cookie') this.cookies = [value];
    else this.values[key] = value;
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    if (key === 'set-cookie') this.cookies.push(value);
    else {
      const current = this.values[key];
      this.values[key] = current === undefined ? value : `${current}, ${value}`;
    }
  }

  delete(name: string): void {
    const key = name.toLowerCase();
    if (key === 'set-cookie') this.cookies = [];
    else delete this.values[key];
  }

  /**
   * What the adapter's Response is given: the record itself when no cookie is set (the adapter
   * writes it with one writeHead call), otherwise `Headers` of `Init` with each cookie appended.
   */
  toInit<Init extends Headers>(HeadersClass: new () => Init): Record<string, string> | Init {
    if (!this.cookies.length) return this.values;
    const headers = new HeadersClass();
    for (const name in this.values) headers.set(name, this.values[name] as string);
    for (const cookie of this.cookies) headers.append('set-cookie', cookie);
    return headers;
  }
}

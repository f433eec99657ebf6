// Who is calling, as the resolver (actor.ts) hands it on. Its own file so the actor extensions
// (actor-extensions.ts), which actor.ts runs, can name it without an import cycle.
export interface Actor {
  /**
   * `user` for a session, also when an API key came with it (the session's user acts, bounded by
   * the key: see combineKeyAndSession); `apiKey` for a key alone.
   */
  kind: 'user' | 'apiKey';
  userId: string;
  organizationId: string;
  /** The user's role; for an API key, the role of the user it was minted for. */
  role: string | null;
  permissions: string[];
  /** The API key of the request: a key alone, or the key that bounds a session (kind `user`). */
  apiKeyId?: string;
  /** The API-key scope the key was minted against. */
  scope?: string;
  /** A customer acts on their own records (carts, orders, profile). */
  customerId?: string;
  /** The vendor a vendor-role user acts for (the marketplace); unset when it is linked to none. */
  vendorId?: string;
  /**
   * A user of the marketplace's vendor role, linked or not: it writes only catalog entities of
   * its vendorId (none without one) and no organization-wide catalog settings.
   */
  actsForVendor?: boolean;
  /**
   * The user's role must use two-factor (auth.twoFactor.requiredForRoles) and the user has not
   * enrolled: the session may reach only the enrolment endpoints until then.
   */
  twoFactorEnrolmentRequired?: boolean;
}

// The postal address type shared by orders (shipping address), settings (branding address) and
// warehouses: one GraphQL type, so clients handle addresses with one fragment.
import { builder } from './builder.js';

export interface AddressView {
  firstName?: string | null;
  lastName?: string | null;
  company?: string | null;
  line1?: string | null;
  line2?: string | null;
  city?: string | null;
  state?: string | null;
  postalCode?: string | null;
  country?: string | null;
  phone?: string | null;
}

const text = (description?: string) => ({ nullable: true as const, ...(description ? { description } : {}) });

/** A postal address as checkout validates it (line1, city, postalCode and country are required there). */
export const AddressRef = builder.objectRef<AddressView>('Address').implement({
  description: 'A postal address.',
  fields: (t) => ({
    firstName: t.exposeString('firstName', text()),
    lastName: t.exposeString('lastName', text()),
    company: t.exposeString('company', text()),
    line1: t.exposeString('line1', text()),
    line2: t.exposeString('line2', text()),
    city: t.exposeString('city', text()),
    state: t.exposeString('state', text('State, province or region')),
    postalCode: t.exposeString('postalCode', text()),
    country: t.exposeString('country', text('ISO 3166-1 alpha-2 code')),
    phone: t.exposeString('phone', text()),
  }),
});

// The settings groups the API knows (src/modules/settings/groups.ts) as form fields. The server
// validates again and its 422 names the field (`address.city`, `currencies.1`); these rules only
// spare a round trip for the plain mistakes.

export type FieldKind = 'text' | 'textarea' | 'url' | 'email' | 'int' | 'bool' | 'list' | 'select' | 'color';

export interface FieldSpec {
  /** Dotted path inside the group: `address.city` is a nested key. */
  key: string;
  label: string;
  kind: FieldKind;
  description?: string;
  options?: { value: string; label: string }[];
  min?: number;
  max?: number;
  maxLength?: number;
  pattern?: { value: RegExp; message: string };
  /** The server's default when the key is unset, shown as the placeholder. */
  placeholder?: string;
  /** Shown in uppercase and sent so (ISO codes). */
  upper?: boolean;
}

export interface GroupSpec {
  group: string;
  title: string;
  description: string;
  fields: FieldSpec[];
}

const CURRENCY = { value: /^[A-Z]{3}$/, message: 'An ISO 4217 code such as USD' };

function timeZones(): { value: string; label: string }[] {
  // Chromium and Node both list the IANA zones; the server checks the value again.
  const zones = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['UTC'];
  return zones.map((z) => ({ value: z, label: z }));
}

export const SETTINGS_GROUPS: GroupSpec[] = [
  {
    group: 'general',
    title: 'General',
    description: 'Currency, locale and time zone of the store.',
    fields: [
      { key: 'currency', label: 'Currency', kind: 'text', upper: true, pattern: CURRENCY, description: 'Default currency, e.g. USD' },
      { key: 'currencies', label: 'Further currencies', kind: 'list', upper: true, description: 'ISO 4217 codes; press Enter after each' },
      { key: 'locale', label: 'Locale', kind: 'text', maxLength: 35, placeholder: 'en', description: 'BCP 47, e.g. en or en-US' },
      { key: 'locales', label: 'Further locales', kind: 'list', description: 'BCP 47 codes; press Enter after each' },
      { key: 'timezone', label: 'Time zone', kind: 'select', options: timeZones(), placeholder: 'UTC' },
      { key: 'pricesIncludeTax', label: 'Prices include tax', kind: 'bool', description: 'Checkout extracts tax from listed prices instead of adding it' },
    ],
  },
  {
    group: 'branding',
    title: 'Branding',
    description: 'How the store names itself on receipts, invoices and e-mails.',
    fields: [
      { key: 'storeName', label: 'Store name', kind: 'text', maxLength: 200 },
      { key: 'legalName', label: 'Legal name', kind: 'text', maxLength: 200 },
      { key: 'email', label: 'Contact e-mail', kind: 'email' },
      { key: 'phone', label: 'Phone', kind: 'text', maxLength: 50 },
      { key: 'website', label: 'Website', kind: 'url' },
      { key: 'logoUrl', label: 'Logo URL', kind: 'url' },
      { key: 'taxId', label: 'Tax ID', kind: 'text', maxLength: 100 },
      { key: 'primaryColor', label: 'Primary colour', kind: 'color', pattern: { value: /^#[0-9a-fA-F]{6}$/, message: 'A hex colour such as #1a2b3c' } },
      { key: 'address.line1', label: 'Address line 1', kind: 'text', maxLength: 200, description: 'An address needs line 1, city, postal code and country' },
      { key: 'address.line2', label: 'Address line 2', kind: 'text', maxLength: 200 },
      { key: 'address.city', label: 'City', kind: 'text', maxLength: 100 },
      { key: 'address.state', label: 'State or region', kind: 'text', maxLength: 100 },
      { key: 'address.postalCode', label: 'Postal code', kind: 'text', maxLength: 20 },
      { key: 'address.country', label: 'Country', kind: 'text', upper: true, pattern: { value: /^[A-Z]{2}$/, message: 'An ISO 3166-1 alpha-2 code such as US' } },
      { key: 'receiptFooter', label: 'Receipt footer', kind: 'textarea', maxLength: 1000 },
    ],
  },
  {
    group: 'policies',
    title: 'Policies',
    description: 'Refund limits, the return window and the policy pages shoppers see.',
    fields: [
      {
        key: 'returnWindowDays',
        placeholder: '30',
        label: 'Return window (days)',
        kind: 'int',
        min: 0,
        max: 3650,
        description: 'Days after the last fulfilment in which a customer may ask for a return (default 30)',
      },
      { key: 'refundDailyCap', label: 'Refund daily cap (minor units)', kind: 'int', min: 0, description: 'Per operator per day, e.g. 50000 = $500.00' },
      { key: 'refundUndoWindowMinutes', label: 'Refund undo window (minutes)', kind: 'int', min: 0, placeholder: '15', description: 'Default 15' },
      { key: 'termsUrl', label: 'Terms URL', kind: 'url' },
      { key: 'privacyUrl', label: 'Privacy URL', kind: 'url' },
      { key: 'returnsUrl', label: 'Returns URL', kind: 'url' },
    ],
  },
  {
    group: 'payments',
    title: 'Payments',
    description: 'When payments are captured and how long a 3-D Secure action may wait.',
    fields: [
      {
        key: 'capture',
        placeholder: 'Automatic (default)',
        label: 'Capture',
        kind: 'select',
        options: [
          { value: 'automatic', label: 'Automatic (at checkout)' },
          { value: 'manual', label: 'Manual (staff capture)' },
          { value: 'on_fulfilment', label: 'On fulfilment' },
        ],
      },
      {
        key: 'actionExpiryMinutes',
        placeholder: '30',
        label: 'Action expiry (minutes)',
        kind: 'int',
        min: 1,
        max: 1440,
        description: 'Stock is held this long for a pending 3-D Secure step (default 30)',
      },
    ],
  },
  {
    group: 'tax',
    title: 'Tax',
    description: 'Customer groups whose orders carry no tax (reverse charge).',
    fields: [
      { key: 'exemptCustomerGroupIds', label: 'Exempt customer groups', kind: 'list', description: 'Group keys; press Enter after each' },
      {
        key: 'exemptionNote',
        label: 'Exemption note',
        kind: 'text',
        maxLength: 200,
        placeholder: 'Reverse charge',
        description: 'Printed on exempt invoices (default "Reverse charge")',
      },
    ],
  },
];

export const KNOWN_GROUP_NAMES = new Set(SETTINGS_GROUPS.map((g) => g.group));

/** The value at a dotted path. */
export function pick(values: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), values);
}

/** Form values → the group patch: an empty field is null (the key is deleted); a nested object with nothing in it is null too. */
export function toPatch(spec: GroupSpec, form: Record<string, unknown>): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const nested: Record<string, Record<string, unknown>> = {};
  for (const field of spec.fields) {
    const raw = pick(form, field.key);
    let value: unknown = raw;
    if (field.kind === 'int') value = raw === '' || raw === undefined || raw === null ? null : Number(raw);
    else if (field.kind === 'bool') value = Boolean(raw);
    else if (field.kind === 'list') value = Array.isArray(raw) && raw.length ? raw.map((v) => (field.upper ? String(v).toUpperCase() : String(v))) : null;
    else {
      const text = typeof raw === 'string' ? raw.trim() : '';
      value = text ? (field.upper ? text.toUpperCase() : text) : null;
    }
    const [head, tail] = field.key.split('.', 2);
    if (tail && head) {
      nested[head] ??= {};
      if (value !== null) nested[head][tail] = value;
    } else patch[field.key] = value;
  }
  for (const [key, object] of Object.entries(nested)) patch[key] = Object.keys(object).length ? object : null;
  return patch;
}

/** The group's stored values as form defaults: every field present (empty string, [] or false when unset). */
export function toForm(spec: GroupSpec, values: Record<string, unknown>): Record<string, unknown> {
  const form: Record<string, unknown> = {};
  for (const field of spec.fields) {
    const value = pick(values, field.key);
    const empty = field.kind === 'list' ? [] : field.kind === 'bool' ? false : '';
    const [head, tail] = field.key.split('.', 2);
    if (tail && head) {
      form[head] ??= {};
      (form[head] as Record<string, unknown>)[tail] = value ?? empty;
    } else form[field.key] = value ?? empty;
  }
  return form;
}

/** A 422 detail's field (`address.city`, `currencies.1`) → the form field it names, if the group has it. */
export function formFieldOf(spec: GroupSpec, detailField: string): string | undefined {
  const path = detailField
    .replace(/^values\./, '')
    .split('.')
    .filter((s) => !/^\d+$/.test(s))
    .join('.');
  return spec.fields.find((f) => f.key === path)?.key;
}

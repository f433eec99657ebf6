// Settings operations: GET /settings, GET /settings/:group, PATCH /settings/:group.
import { z } from 'zod';
import { defineOperation } from '../../graphql/operation.js';
import { getAllSettings, getSettingsGroup, patchSettingsGroup } from './service.js';

const access = { permission: 'settings:manage' } as const;
const group = z.string().min(1).max(64).describe('Settings group: general, branding, policies or any other name');

defineOperation({
  name: 'settings',
  kind: 'query',
  summary: 'All settings groups of the organization, keyed by group name',
  rest: { method: 'GET', path: '/settings' },
  access,
  input: {},
  output: 'JSONObject',
  resolve: (ctx) => getAllSettings(ctx),
});

defineOperation({
  name: 'settingsGroup',
  kind: 'query',
  summary: 'One settings group; {} when it was never set',
  rest: { method: 'GET', path: '/settings/:group' },
  access,
  input: { group },
  output: 'JSONObject',
  resolve: (ctx, input) => getSettingsGroup(ctx, input.group),
});

defineOperation({
  name: 'settingsUpdate',
  kind: 'mutation',
  summary: 'Shallow-merge a patch into a settings group; a null value deletes that key',
  description:
    'Known groups are validated: general (currency ISO 4217, timezone IANA, locale BCP 47; currencies and locales: lists of further ones; pricesIncludeTax: boolean), ' +
    'tax (exemptCustomerGroupIds: customer groups whose orders carry no tax; exemptionNote: the invoice note, default "Reverse charge"), ' +
    'branding (storeName, legalName, email, phone, website, logoUrl, taxId, address, receiptFooter, primaryColor), ' +
    'policies (refundDailyCap, refundUndoWindowMinutes and returnWindowDays (at most 3650), non-negative integers; termsUrl, privacyUrl, returnsUrl: URLs shown in GET /store). Over REST the request body is the patch itself.',
  rest: { method: 'PATCH', path: '/settings/:group', bodyAs: 'values' },
  access,
  input: { group, values: z.record(z.string(), z.unknown()).describe('The patch: keys to set, null to delete') },
  output: 'JSONObject',
  resolve: (ctx, input) => patchSettingsGroup(ctx, input.group, input.values),
  audit: { event: 'settings.update', entityType: 'settings', entityId: (input) => input.group, before: (ctx, input) => getSettingsGroup(ctx, input.group) },
});
import './types.js';

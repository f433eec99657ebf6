// What other modules use from tax: the per-line rate resolver (checkout) and the class list.
// ctx.services.tax is this object; every function takes a ServiceContext whose db may be the
// caller's transaction client.
import { percentOf } from '../pricing/rounding.js';
import { resolveClassRate, resolveTaxRates } from './resolver.js';
import { findTaxClass, listTaxClasses } from './service.js';
import { tableTaxProvider, type TaxProvider } from './provider.js';
import { taxJarProvider } from './taxjar.js';
import { ConfigError, type Config } from '../../config/index.js';

/** Tax on a line amount at a rate, rounded half up to the minor unit (pricing/rounding.ts). */
export function lineTax(amount: bigint, rateBps: number): bigint {
  return percentOf(amount, rateBps);
}

export const taxService = { resolveTaxRates, resolveClassRate, lineTax, listTaxClasses, findTaxClass, provider: tableTaxProvider as TaxProvider };
export type TaxService = typeof taxService;

/** The tax service of a process: the table provider unless config `tax.provider` names another. */
export function createTaxService(config: Config, env: NodeJS.ProcessEnv = process.env): TaxService {
  if (config.tax.provider === 'table') return taxService;
  const apiToken = config.tax.taxjar.apiToken ?? env.TAXJAR_API_TOKEN;
  if (!apiToken) throw new ConfigError('tax.provider is taxjar but no token is set: set TAXJAR_API_TOKEN (or tax.taxjar.apiToken)');
  return { ...taxService, provider: taxJarProvider({ apiUrl: config.tax.taxjar.apiUrl, apiToken, timeoutMs: config.tax.taxjar.timeoutMs }) };
}
export type { ClassRate, ResolvedTax, TaxLine, TaxSource } from './resolver.js';
export type { TaxDestination } from './destination.js';
export type { TaxCalculation, TaxDraft, TaxProvider } from './provider.js';

// ctx.services.tax: the core's Services registry (src/services.ts) is filled by each module, by declaration merging.
declare module '../../services.js' {
  interface Services {
    tax: TaxService;
  }
}

// Registers the Adyen provider. It is enabled when payments.adyen has an API key, a merchant
// account and an HMAC key (ADYEN_API_KEY, ADYEN_MERCHANT_ACCOUNT, ADYEN_HMAC_KEY); a partial
// configuration is a boot error naming what is missing rather than a provider that fails later.
import { ConfigError, type Config } from '../../../../config/index.js';
import { registerPaymentProvider } from '../../provider.js';
import { AdyenProvider } from './provider.js';

/** Any Adyen setting present: the provider is enabled (a partial set then fails boot naming what is missing). */
export function adyenConfigured(config: Config): boolean {
  const { apiKey, merchantAccount, hmacKey } = config.payments.adyen;
  return Boolean(apiKey || merchantAccount || hmacKey);
}

registerPaymentProvider('adyen', ({ config }) => {
  const { adyen, timeoutMs } = config.payments;
  const set = { apiKey: adyen.apiKey, merchantAccount: adyen.merchantAccount, hmacKey: adyen.hmacKey };
  const { apiKey, merchantAccount, hmacKey } = set;
  if (apiKey && merchantAccount && hmacKey) return new AdyenProvider({ apiKey, merchantAccount, hmacKey, apiBase: adyen.apiBase, timeoutMs });
  const missing = Object.entries(set)
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length === 3) return null;
  const env: Record<string, string> = { apiKey: 'ADYEN_API_KEY', merchantAccount: 'ADYEN_MERCHANT_ACCOUNT', hmacKey: 'ADYEN_HMAC_KEY' };
  throw new ConfigError(`payments.adyen is partly configured: set ${missing.map((k) => `${env[k]} (payments.adyen.${k})`).join(', ')}`);
});

export { AdyenProvider } from './provider.js';

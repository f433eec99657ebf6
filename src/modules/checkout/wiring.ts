// Where checkout finds its ports (ports.ts) among the app's services.
// INTERIM until the inventory/pricing/promotions/tax module is merged: nothing provides them yet.
import { AppError } from '../../errors.js';
import type { Services } from '../../services.js';
import type { CheckoutPorts } from './ports.js';

export function portsOf(services: Services): CheckoutPorts {
  const ports = (services as Services & { checkoutPorts?: CheckoutPorts }).checkoutPorts;
  if (!ports) throw new AppError('CHECKOUT_FAILED', 'Pricing, tax, promotions and inventory are not installed');
  return ports;
}

// The screens: path, label, the permission that shows the entry (the server still enforces each
// operation), and the code-split component (React.lazy: the shell loads none of them up front).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { pluginScreens } from './plugins/manifest';

type Loader = () => Promise<{ default: ComponentType }>;
type ScreenComponent = LazyExoticComponent<ComponentType> & { preload?: Loader };

/** A code-split screen whose chunk can also be fetched before React asks for it (preloadScreen). */
function screen(load: Loader): ScreenComponent {
  return Object.assign(lazy(load), { preload: load });
}

export interface Screen {
  path: string;
  label: string;
  permission: string;
  component: ScreenComponent;
  /** Routes under the entry (detail pages) that the navigation does not list. */
  children?: { path: string; component: ScreenComponent }[];
  /** Set for plugin screens: shown only when the server reports the plugin enabled. */
  plugin?: string;
}

export const coreScreens: Screen[] = [
  { path: '', label: 'Home', permission: 'orders:read', component: screen(() => import('./screens/Home')) },
  {
    path: 'orders',
    label: 'Orders',
    permission: 'orders:read',
    component: screen(() => import('./screens/orders/OrderList')),
    children: [{ path: 'orders/:id', component: screen(() => import('./screens/orders/OrderDetail')) }],
  },
  {
    path: 'catalog',
    label: 'Catalog',
    permission: 'catalog:read',
    component: screen(() => import('./screens/catalog/ProductList')),
    children: [{ path: 'catalog/:id', component: screen(() => import('./screens/catalog/ProductEditor')) }],
  },
  {
    path: 'customers',
    label: 'Customers',
    permission: 'customers:read',
    component: screen(() => import('./screens/customers/CustomerList')),
    children: [{ path: 'customers/:id', component: screen(() => import('./screens/customers/CustomerDetail')) }],
  },
  { path: 'inventory', label: 'Inventory', permission: 'inventory:read', component: screen(() => import('./screens/Inventory')) },
  { path: 'promotions', label: 'Promotions', permission: 'promotions:read', component: screen(() => import('./screens/Promotions')) },
  { path: 'tax', label: 'Tax classes', permission: 'tax:manage', component: screen(() => import('./screens/TaxClasses')) },
  { path: 'reports', label: 'Reports', permission: 'analytics:read', component: screen(() => import('./screens/Reports')) },
  { path: 'api-keys', label: 'API keys', permission: 'apikeys:manage', component: screen(() => import('./screens/ApiKeys')) },
  { path: 'webhooks', label: 'Webhooks', permission: 'webhooks:manage', component: screen(() => import('./screens/Webhooks')) },
  { path: 'audit', label: 'Audit log', permission: 'audit:read', component: screen(() => import('./screens/Audit')) },
  { path: 'jobs', label: 'Failed jobs', permission: 'jobs:admin', component: screen(() => import('./screens/FailedJobs')) },
  { path: 'settings', label: 'Settings', permission: 'settings:manage', component: screen(() => import('./screens/settings/Settings')) },
];

export function visibleScreens(can: (permission: string) => boolean, plugins: readonly string[]): Screen[] {
  return [...coreScreens, ...pluginScreens].filter((s) => can(s.permission) && (!s.plugin || plugins.includes(s.plugin)));
}

/**
 * Starts fetching the chunk of the screen at `pathname` (under /admin) at once, beside the session
 * query: otherwise it is requested only after the session answers and the routes render, one more
 * round trip in series before the screen's own query can start. import() is cached, so the lazy
 * component gets the same module.
 */
export function preloadScreen(pathname: string): void {
  const parts = pathname
    .replace(/^\/admin\/?/, '')
    .split('/')
    .filter(Boolean);
  const matches = (path: string) => {
    const pattern = path.split('/').filter(Boolean);
    return pattern.length === parts.length && pattern.every((p, i) => p.startsWith(':') || p === parts[i]);
  };
  for (const s of [...coreScreens, ...pluginScreens]) {
    const hit = matches(s.path) ? s.component : s.children?.find((c) => matches(c.path))?.component;
    if (hit?.preload) {
      void hit.preload().catch(() => undefined);
      return;
    }
  }
}

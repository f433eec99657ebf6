// The screens: path, label, the permission that shows the entry (the server still enforces each
// operation), and the code-split component (React.lazy: the shell loads none of them up front).
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import { pluginScreens } from './plugins/manifest';

export interface Screen {
  path: string;
  label: string;
  permission: string;
  component: LazyExoticComponent<ComponentType>;
  /** Routes under the entry (detail pages) that the navigation does not list. */
  children?: { path: string; component: LazyExoticComponent<ComponentType> }[];
  /** Set for plugin screens: shown only when the server reports the plugin enabled. */
  plugin?: string;
}

export const coreScreens: Screen[] = [
  { path: '', label: 'Home', permission: 'orders:read', component: lazy(() => import('./screens/Home')) },
  {
    path: 'orders',
    label: 'Orders',
    permission: 'orders:read',
    component: lazy(() => import('./screens/orders/OrderList')),
    children: [{ path: 'orders/:id', component: lazy(() => import('./screens/orders/OrderDetail')) }],
  },
  {
    path: 'catalog',
    label: 'Catalog',
    permission: 'catalog:read',
    component: lazy(() => import('./screens/catalog/ProductList')),
    children: [{ path: 'catalog/:id', component: lazy(() => import('./screens/catalog/ProductEditor')) }],
  },
  {
    path: 'customers',
    label: 'Customers',
    permission: 'customers:read',
    component: lazy(() => import('./screens/customers/CustomerList')),
    children: [{ path: 'customers/:id', component: lazy(() => import('./screens/customers/CustomerDetail')) }],
  },
  { path: 'inventory', label: 'Inventory', permission: 'inventory:read', component: lazy(() => import('./screens/Inventory')) },
  { path: 'promotions', label: 'Promotions', permission: 'promotions:read', component: lazy(() => import('./screens/Promotions')) },
  { path: 'tax', label: 'Tax classes', permission: 'tax:manage', component: lazy(() => import('./screens/TaxClasses')) },
  { path: 'reports', label: 'Reports', permission: 'analytics:read', component: lazy(() => import('./screens/Reports')) },
  { path: 'api-keys', label: 'API keys', permission: 'apikeys:manage', component: lazy(() => import('./screens/ApiKeys')) },
  { path: 'webhooks', label: 'Webhooks', permission: 'webhooks:manage', component: lazy(() => import('./screens/Webhooks')) },
  { path: 'audit', label: 'Audit log', permission: 'audit:read', component: lazy(() => import('./screens/Audit')) },
  { path: 'jobs', label: 'Failed jobs', permission: 'jobs:admin', component: lazy(() => import('./screens/FailedJobs')) },
  { path: 'settings', label: 'Settings', permission: 'settings:manage', component: lazy(() => import('./screens/settings/Settings')) },
];

export function visibleScreens(can: (permission: string) => boolean, plugins: readonly string[]): Screen[] {
  return [...coreScreens, ...pluginScreens].filter((s) => can(s.permission) && (!s.plugin || plugins.includes(s.plugin)));
}

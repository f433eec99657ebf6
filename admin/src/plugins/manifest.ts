// Plugin screens. A plugin adds its screen here with the plugin id the server reports in
// `viewer.plugins`: the entry shows only when that plugin is enabled (and the caller holds the
// permission). Its component lives under plugins/<id>/ and is code-split like every screen.
import { lazy } from 'react';
import type { Screen } from '../nav';

export const pluginScreens: Screen[] = [
  {
    plugin: 'marketplace',
    path: 'marketplace/vendors',
    label: 'Vendor approvals',
    permission: 'marketplace:manage',
    component: lazy(() => import('./marketplace/VendorQueue')),
  },
];

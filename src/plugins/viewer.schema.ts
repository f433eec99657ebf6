// `viewer`: who the caller is, as the caller's own client needs to know it — the role and the
// permission strings the server will enforce. The dashboard (admin/) draws its navigation and
// actions from this list; the server still checks every operation on its own.
// It lives with the plugin host, not in modules/, because it reports the active plugins, which
// modules may not import (scripts/layers.ts).
import { builder } from '../graphql/builder.js';
import { defineOperation } from '../graphql/operation.js';
import { defineEnum } from '../graphql/enums.js';
import { activePlugins } from './runtime.js';

interface Viewer {
  kind: string;
  role: string | null;
  permissions: string[];
  plugins: string[];
}

const ViewerKindEnum = defineEnum('ViewerKind', ['user', 'apiKey'] as const, 'How the caller authenticated: user (a session) or apiKey.');

const ViewerRef = builder.objectRef<Viewer>('Viewer').implement({
  description: 'The caller: how it authenticated, its role, and the permissions it holds in this organization',
  fields: (t) => ({
    kind: t.field({ type: ViewerKindEnum, description: 'user (a session) or apiKey', resolve: (v) => v.kind as 'user' | 'apiKey' }),
    role: t.exposeString('role', { nullable: true, description: "The user's role (for a key, the role of the user it was minted for); null when none" }),
    permissions: t.exposeStringList('permissions', { description: 'Permission strings held, e.g. orders:read, catalog:write' }),
    plugins: t.exposeStringList('plugins', { description: 'Ids of the plugins enabled in this deployment (a client shows their screens only then)' }),
  }),
});

defineOperation({
  name: 'viewer',
  kind: 'query',
  summary: "The caller's role and permission strings",
  description: 'What a client needs to show only what the caller may do; every operation still checks its own permission.',
  tag: 'viewer',
  rest: { method: 'GET', path: '/viewer' },
  access: 'authenticated',
  input: {},
  output: ViewerRef,
  resolve: (ctx) => {
    const actor = ctx.actor;
    if (!actor) throw new Error('viewer: an authenticated operation resolved without an actor');
    return { kind: actor.kind, role: actor.role, permissions: [...actor.permissions].sort(), plugins: activePlugins().map((plugin) => plugin.id) };
  },
});

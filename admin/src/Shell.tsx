// The frame around every screen: navigation built from the caller's permissions, sign-out, and a
// router outlet whose screens load on demand.
import { Suspense } from 'react';
import { AppShell, Burger, Button, Group, Loader, NavLink, ScrollArea, Text, Title } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { NavLink as RouterLink, Route, Routes, useLocation } from 'react-router-dom';
import { signOut } from './api/auth';
import { visibleScreens } from './nav';
import { useSession } from './session';
import './shell.css';

export function Shell() {
  const session = useSession();
  const [opened, { toggle }] = useDisclosure();
  const location = useLocation();
  const screens = visibleScreens(session.can, session.plugins);
  const active = (path: string) => (path === '' ? location.pathname === '/' : location.pathname.startsWith(`/${path}`));
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 220, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Group>
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Title order={2} size="h4">
              Commerce
            </Title>
          </Group>
          <Group>
            <Text size="sm" c="dimmed">
              {session.role ?? 'signed in'}
            </Text>
            <Button variant="subtle" size="xs" onClick={() => signOut().then(session.refresh)}>
              Sign out
            </Button>
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" component="nav" aria-label="Main">
        <ScrollArea>
          {screens.map((s) => (
            <NavLink key={s.path} component={RouterLink} to={`/${s.path}`} label={s.label} active={active(s.path)} />
          ))}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main className="shell-main">
        <Suspense fallback={<Loader aria-label="Loading screen" />}>
          <Routes>
            {screens.flatMap((s) => [
              <Route key={s.path} path={s.path === '' ? '/' : `/${s.path}`} element={<s.component />} />,
              ...(s.children ?? []).map((c) => <Route key={c.path} path={`/${c.path}`} element={<c.component />} />),
            ])}
            <Route path="*" element={<Text>No such screen, or your role may not open it.</Text>} />
          </Routes>
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

// Who is signed in: the `viewer` query. Unauthenticated → the sign-in screen; a role that must
// use two factors and has not enrolled → a notice (the server refuses everything else to it).
import { createContext, useContext, type ReactNode } from 'react';
import { useQuery } from 'urql';
import { Center, Loader } from '@mantine/core';
import { graphql } from './gql';
import { errorCode } from './api/errors';
import { can } from './permissions';
import { SignIn } from './SignIn';

const ViewerQuery = graphql(`
  query Viewer {
    viewer {
      kind
      role
      permissions
      plugins
    }
  }
`);

export interface Session {
  role: string | null;
  permissions: string[];
  plugins: string[];
  can(permission: string): boolean;
  refresh(): void;
}

const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside SessionProvider');
  return session;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [{ data, fetching, error }, refetch] = useQuery({ query: ViewerQuery, requestPolicy: 'network-only' });
  const refresh = () => refetch({ requestPolicy: 'network-only' });
  if (fetching && !data) {
    return (
      <Center h="100vh">
        <Loader aria-label="Loading" />
      </Center>
    );
  }
  const viewer = data?.viewer;
  if (!viewer) return <SignIn onSignedIn={refresh} twoFactorEnrolment={errorCode(error) === 'TWO_FACTOR_REQUIRED'} />;
  const session: Session = {
    role: viewer.role ?? null,
    permissions: viewer.permissions,
    plugins: viewer.plugins,
    can: (permission) => can(viewer.permissions, permission),
    refresh,
  };
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

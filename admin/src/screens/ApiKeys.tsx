// API keys: the organization's keys (never the keys themselves), minting one through apiKeyCreate
// (the server checks the caller may grant the scope; the key is shown once, with a copy button)
// and revoking one. Scopes the caller may not grant are listed but disabled.
import { useState } from 'react';
import { Alert, Badge, Button, Code, CopyButton, Group, Modal, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { ApiKeyStatus } from '../gql/graphql';
import { errorMessage, fieldIssues } from '../api/errors';
import { ListScreen, pagingVariables } from '../components/ListScreen';
import type { Cursor } from '../components/Pager';
import { dateTime } from '../format';

/**
 * What the list calls a key: its name, or for an unnamed one (minted before the CLI named its
 * keys) its scope; the revoke button adds the start, which tells two unnamed keys apart.
 */
function keyLabel(k: { name?: string | null; scope: string }): string {
  return k.name ?? `Unnamed ${k.scope} key`;
}

const ApiKeysQuery = graphql(`
  query AdminApiKeys($first: Int, $last: Int, $after: String, $before: String, $status: ApiKeyStatus) {
    apiKeyScopes {
      name
      description
      grantable
    }
    apiKeys(first: $first, last: $last, after: $after, before: $before, status: $status) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      data {
        id
        name
        scope
        start
        status
        expiresAt
        lastUsedAt
        createdAt
      }
    }
  }
`);

const CreateKey = graphql(`
  mutation AdminApiKeyCreate($name: String!, $scope: String!, $expiresAt: DateTime) {
    apiKeyCreate(name: $name, scope: $scope, expiresAt: $expiresAt) {
      key
      apiKey {
        id
        name
        scope
      }
    }
  }
`);

const RevokeKey = graphql(`
  mutation AdminApiKeyRevoke($id: UUID!) {
    apiKeyRevoke(id: $id) {
      id
      status
    }
  }
`);

/** The form's date (YYYY-MM-DD) as the end of that day, local time. */
function endOfDay(date: string): string | undefined {
  if (!date) return undefined;
  const at = new Date(`${date}T23:59:59`);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

export default function ApiKeys() {
  const [cursor, setCursor] = useState<Cursor>({});
  const [status, setStatus] = useState<ApiKeyStatus | null>(null);
  const [{ data, error }, refetch] = useQuery({ query: ApiKeysQuery, variables: { ...pagingVariables(cursor), status } });
  const [creating, create] = useMutation(CreateKey);
  const [, revoke] = useMutation(RevokeKey);
  const [name, setName] = useState('');
  const [scope, setScope] = useState<string | null>(null);
  const [expires, setExpires] = useState('');
  const [minted, setMinted] = useState<{ key: string; name: string | null } | null>(null);
  const [confirm, setConfirm] = useState<{ id: string; name: string | null } | null>(null);
  const issues = fieldIssues(creating.error);
  const issue = (field: string) => issues.find((i) => i.field === field)?.message;
  const scopes = data?.apiKeyScopes ?? [];

  async function onCreate(event: React.FormEvent) {
    event.preventDefault();
    if (!scope) return;
    const result = await create({ name: name.trim(), scope, expiresAt: endOfDay(expires) });
    if (result.data?.apiKeyCreate) {
      setMinted({ key: result.data.apiKeyCreate.key, name: result.data.apiKeyCreate.apiKey.name ?? null });
      setName('');
      setExpires('');
      refetch({ requestPolicy: 'network-only' });
    }
  }
  async function onRevoke(id: string) {
    setConfirm(null);
    const result = await revoke({ id });
    notifications.show(result.error ? { color: 'red', message: errorMessage(result.error) } : { message: 'API key revoked' });
    refetch({ requestPolicy: 'network-only' });
  }

  return (
    <ListScreen
      title="API keys"
      page={data?.apiKeys}
      error={error}
      onPage={setCursor}
      rowKey={(k) => k.id}
      columns={[
        {
          key: 'name',
          title: 'Name',
          render: (k) =>
            k.name ?? (
              <Text span size="sm" fs="italic">
                {keyLabel(k)}
              </Text>
            ),
        },
        { key: 'scope', title: 'Scope', render: (k) => k.scope },
        // The code chip holds exactly the key's first characters (what a user matches against their
        // secret); the ellipsis outside it says the key goes on, rather than that the cell was cut.
        {
          key: 'start',
          title: 'Starts with',
          render: (k) =>
            k.start ? (
              <Text span size="sm" style={{ whiteSpace: 'nowrap' }} title={`The key starts with ${k.start}`}>
                <Code>{k.start}</Code> …
              </Text>
            ) : (
              '—'
            ),
        },
        // The orders list's payment badge style: it passes axe's contrast rule on striped rows (filled green.9 and light did not).
        {
          key: 'status',
          title: 'Status',
          render: (k) => (
            <Badge variant="outline" color="gray">
              {k.status}
            </Badge>
          ),
        },
        { key: 'created', title: 'Created', render: (k) => dateTime(k.createdAt) },
        { key: 'used', title: 'Last used', render: (k) => dateTime(k.lastUsedAt) },
        { key: 'expires', title: 'Expires', render: (k) => (k.expiresAt ? dateTime(k.expiresAt) : 'Never') },
        {
          key: 'revoke',
          title: 'Revoke',
          render: (k) =>
            k.status === 'active' ? (
              <Button
                size="xs"
                variant="default"
                color="red"
                onClick={() => setConfirm({ id: k.id, name: keyLabel(k) })}
                aria-label={`Revoke ${keyLabel(k)}${k.name ? '' : ` ${k.start ?? ''}`}`.trim()}
              >
                Revoke
              </Button>
            ) : null,
        },
      ]}
    >
      <Title order={2} size="h4" mb="sm">
        New key
      </Title>
      <form onSubmit={onCreate} aria-label="New API key">
        <Group align="start" mb="md">
          <TextInput label="Name" placeholder="e.g. ERP sync" required value={name} onChange={(e) => setName(e.currentTarget.value)} error={issue('name')} w={240} />
          <Select
            label="Scope"
            placeholder="Choose a scope"
            required
            data={scopes.map((s) => ({ value: s.name, label: s.grantable ? s.name : `${s.name} (beyond your permissions)`, disabled: !s.grantable }))}
            value={scope}
            onChange={setScope}
            error={issue('scope')}
            w={300}
          />
          <TextInput label="Expires (optional)" type="date" value={expires} onChange={(e) => setExpires(e.currentTarget.value)} error={issue('expiresAt')} w={180} />
          <Button type="submit" mt={25} loading={creating.fetching} disabled={!scope || !name.trim()}>
            Create key
          </Button>
        </Group>
        {scope && (
          <Text size="sm" c="dimmed" mb="sm">
            {scopes.find((s) => s.name === scope)?.description}
          </Text>
        )}
        {creating.error && !issues.length && (
          <Alert color="red" role="alert" mb="sm">
            {errorMessage(creating.error)}
          </Alert>
        )}
      </form>
      <Group justify="space-between" align="end" mt="lg" mb="sm">
        <Title order={2} size="h4">
          Keys
        </Title>
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          data={['active', 'revoked', 'expired']}
          value={status}
          onChange={(v) => {
            setStatus(v as ApiKeyStatus | null);
            setCursor({});
          }}
          w={180}
        />
      </Group>
      <Modal opened={minted !== null} onClose={() => setMinted(null)} title="Your new API key" size="lg" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <Text size="sm">
            Copy the key now: it is shown only once{minted?.name ? ` (${minted.name})` : ''}. Send it as the <Code>x-api-key</Code> header.
          </Text>
          <Code block data-testid="minted-key">
            {minted?.key}
          </Code>
          <Group justify="flex-end">
            <CopyButton value={minted?.key ?? ''}>
              {({ copied, copy }) => (
                <Button color={copied ? 'teal.9' : undefined} onClick={copy}>
                  {copied ? 'Copied' : 'Copy key'}
                </Button>
              )}
            </CopyButton>
            <Button variant="default" onClick={() => setMinted(null)}>
              Done
            </Button>
          </Group>
        </Stack>
      </Modal>
      <Modal opened={confirm !== null} onClose={() => setConfirm(null)} title="Revoke this API key?" closeButtonProps={{ 'aria-label': 'Close' }}>
        <Stack>
          <Text size="sm">Requests made with {confirm?.name ? `“${confirm.name}”` : 'this key'} will be refused from now on. This cannot be undone.</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirm(null)}>
              Cancel
            </Button>
            <Button color="red.9" onClick={() => confirm && onRevoke(confirm.id)}>
              Revoke key
            </Button>
          </Group>
        </Stack>
      </Modal>
    </ListScreen>
  );
}

// Settings: each group (general, branding, policies…) as its values; a group is saved as a JSON
// patch, and a 422 names the key that failed.
import { useState } from 'react';
import { Button, Card, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { fieldIssues, errorMessage } from '../api/errors';
import { ErrorNote } from '../components/ErrorNote';

const SettingsQuery = graphql(`
  query AdminSettings {
    settings
  }
`);

const UpdateSettings = graphql(`
  mutation AdminSettingsUpdate($group: String!, $values: JSONObject!) {
    settingsUpdate(group: $group, values: $values)
  }
`);

function GroupEditor({ group, values, onSaved }: { group: string; values: unknown; onSaved(): void }) {
  const [text, setText] = useState(JSON.stringify(values, null, 2));
  const [problem, setProblem] = useState<string | null>(null);
  const [state, update] = useMutation(UpdateSettings);
  async function save() {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return setProblem('Not valid JSON');
    }
    const result = await update({ group, values: parsed });
    if (result.error) {
      const issues = fieldIssues(result.error);
      setProblem(issues.length ? issues.map((i) => `${i.field}: ${i.message}`).join('; ') : errorMessage(result.error));
    } else {
      setProblem(null);
      notifications.show({ message: `Saved ${group}` });
      onSaved();
    }
  }
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="sm" tt="capitalize">
        {group}
      </Title>
      <Textarea
        label={`${group} values (JSON)`}
        autosize
        minRows={3}
        maxRows={14}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        error={problem}
        styles={{ input: { fontFamily: 'monospace' } }}
      />
      <Group mt="sm">
        <Button variant="default" onClick={save} loading={state.fetching}>
          Save {group}
        </Button>
      </Group>
    </Card>
  );
}

export default function Settings() {
  const [{ data, error }, refetch] = useQuery({ query: SettingsQuery });
  const groups = Object.entries((data?.settings ?? {}) as Record<string, unknown>);
  return (
    <Stack>
      <Title order={1} size="h2">
        Settings
      </Title>
      <ErrorNote error={error} />
      {!groups.length && !error && <Text>Loading…</Text>}
      {groups.map(([group, values]) => (
        <GroupEditor key={group} group={group} values={values} onSaved={() => refetch({ requestPolicy: 'network-only' })} />
      ))}
    </Stack>
  );
}

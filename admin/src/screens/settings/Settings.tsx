// Settings: one form per known group (general, branding, policies, payments, tax; groups.ts), each
// its own react-hook-form saved as a patch (an emptied field deletes its key). A 422 lands on the
// field its `details` name. Groups the dashboard does not know (a plugin's) keep a JSON editor.
import { useState } from 'react';
import { Button, Card, ColorInput, Group, NumberInput, Select, SimpleGrid, Stack, Switch, TagsInput, Text, TextInput, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Controller, useForm, type FieldValues } from 'react-hook-form';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { errorMessage, fieldIssues } from '../../api/errors';
import { ErrorNote } from '../../components/ErrorNote';
import { KNOWN_GROUP_NAMES, SETTINGS_GROUPS, formFieldOf, toForm, toPatch, type FieldSpec, type GroupSpec } from './groups';

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

function rulesFor(field: FieldSpec) {
  return {
    maxLength: field.maxLength ? { value: field.maxLength, message: `At most ${field.maxLength} characters` } : undefined,
    validate: (value: unknown) => {
      if (value === '' || value === undefined || value === null) return true;
      const text = String(value).trim();
      if (field.pattern && !field.pattern.value.test(field.upper ? text.toUpperCase() : text)) return field.pattern.message;
      if (field.kind === 'url' && !URL.canParse(text)) return 'A full URL such as https://example.com';
      if (field.kind === 'email' && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(text)) return 'An e-mail address';
      if (field.kind === 'int') {
        const n = Number(value);
        if (!Number.isInteger(n)) return 'A whole number';
        if (field.min !== undefined && n < field.min) return `At least ${field.min}`;
        if (field.max !== undefined && n > field.max) return `At most ${field.max}`;
      }
      if (field.kind === 'list' && field.upper && Array.isArray(value) && value.some((v) => !/^[A-Za-z]{3}$/.test(String(v)))) return 'ISO 4217 codes such as EUR';
      return true;
    },
  };
}

function GroupForm({ spec, values, onSaved }: { spec: GroupSpec; values: Record<string, unknown>; onSaved(): void }) {
  const form = useForm<FieldValues>({ values: toForm(spec, values), resetOptions: { keepDirtyValues: true } });
  const [state, update] = useMutation(UpdateSettings);
  const [problem, setProblem] = useState<string | null>(null);
  const error = (key: string) => {
    const [head, tail] = key.split('.', 2);
    const node = tail && head ? (form.formState.errors[head] as Record<string, { message?: string }> | undefined)?.[tail] : form.formState.errors[key];
    return (node as { message?: string } | undefined)?.message;
  };
  const submit = form.handleSubmit(async (raw) => {
    setProblem(null);
    const result = await update({ group: spec.group, values: toPatch(spec, raw) });
    if (!result.error) {
      notifications.show({ message: `Saved ${spec.title.toLowerCase()} settings` });
      return onSaved();
    }
    const unplaced: string[] = [];
    for (const issue of fieldIssues(result.error, { keepPath: true })) {
      const key = formFieldOf(spec, issue.field);
      if (key) form.setError(key, { message: issue.message }, { shouldFocus: !unplaced.length });
      else unplaced.push(`${issue.field}: ${issue.message}`);
    }
    setProblem(unplaced.length ? unplaced.join('; ') : fieldIssues(result.error).length ? null : errorMessage(result.error));
  });
  const id = (key: string) => `settings-${spec.group}-${key.replace('.', '-')}`;
  return (
    <Card withBorder component="section" aria-labelledby={`settings-${spec.group}`}>
      <Title order={2} size="h4" id={`settings-${spec.group}`}>
        {spec.title}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {spec.description}
      </Text>
      <form onSubmit={submit} noValidate>
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" verticalSpacing="sm">
          {spec.fields.map((field) => {
            const common = { id: id(field.key), label: field.label, description: field.description, placeholder: field.placeholder, error: error(field.key) };
            if (field.kind === 'bool')
              return (
                <Controller
                  key={field.key}
                  control={form.control}
                  name={field.key}
                  render={({ field: f }) => <Switch {...common} checked={Boolean(f.value)} onChange={(e) => f.onChange(e.currentTarget.checked)} onBlur={f.onBlur} mt="md" />}
                />
              );
            if (field.kind === 'select')
              return (
                <Controller
                  key={field.key}
                  control={form.control}
                  name={field.key}
                  render={({ field: f }) => (
                    <Select
                      {...common}
                      data={field.options ?? []}
                      value={(f.value as string) || null}
                      onChange={(v) => f.onChange(v ?? '')}
                      onBlur={f.onBlur}
                      searchable
                      clearable
                    />
                  )}
                />
              );
            if (field.kind === 'list')
              return (
                <Controller
                  key={field.key}
                  control={form.control}
                  name={field.key}
                  rules={rulesFor(field)}
                  render={({ field: f }) => (
                    <TagsInput
                      {...common}
                      value={(f.value as string[]) ?? []}
                      onChange={(v) => f.onChange(field.upper ? v.map((s) => s.toUpperCase()) : v)}
                      onBlur={f.onBlur}
                      clearable
                      clearButtonProps={{ 'aria-label': `Clear ${field.label.toLowerCase()}` }}
                    />
                  )}
                />
              );
            if (field.kind === 'int')
              return (
                <Controller
                  key={field.key}
                  control={form.control}
                  name={field.key}
                  rules={rulesFor(field)}
                  render={({ field: f }) => (
                    <NumberInput {...common} value={f.value as number | string} onChange={f.onChange} onBlur={f.onBlur} min={field.min} max={field.max} allowDecimal={false} />
                  )}
                />
              );
            if (field.kind === 'color')
              return (
                <Controller
                  key={field.key}
                  control={form.control}
                  name={field.key}
                  rules={rulesFor(field)}
                  render={({ field: f }) => (
                    <ColorInput
                      {...common}
                      value={(f.value as string) ?? ''}
                      onChange={f.onChange}
                      onBlur={f.onBlur}
                      format="hex"
                      eyeDropperButtonProps={{ 'aria-label': `Pick ${field.label.toLowerCase()} from the screen` }}
                    />
                  )}
                />
              );
            if (field.kind === 'textarea') return <Textarea key={field.key} {...common} autosize minRows={2} {...form.register(field.key, rulesFor(field))} />;
            return (
              <TextInput
                key={field.key}
                {...common}
                type={field.kind === 'email' ? 'email' : field.kind === 'url' ? 'url' : 'text'}
                {...form.register(field.key, rulesFor(field))}
              />
            );
          })}
        </SimpleGrid>
        {problem && (
          <Text c="red.8" mt="sm" role="alert">
            {problem}
          </Text>
        )}
        <Group mt="md">
          <Button type="submit" loading={state.fetching}>
            Save {spec.title.toLowerCase()}
          </Button>
          <Button variant="default" onClick={() => form.reset(toForm(spec, values))} disabled={!form.formState.isDirty}>
            Discard changes
          </Button>
        </Group>
      </form>
    </Card>
  );
}

/** A group the dashboard has no form for (a plugin's own): its values as JSON. */
function OtherGroup({ group, values, onSaved }: { group: string; values: unknown; onSaved(): void }) {
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
      const issues = fieldIssues(result.error, { keepPath: true });
      setProblem(issues.length ? issues.map((i) => `${i.field}: ${i.message}`).join('; ') : errorMessage(result.error));
    } else {
      setProblem(null);
      notifications.show({ message: `Saved ${group}` });
      onSaved();
    }
  }
  return (
    <Card withBorder component="section" aria-label={`${group} settings`}>
      <Title order={2} size="h4" mb="sm">
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
  const all = (data?.settings ?? null) as Record<string, Record<string, unknown>> | null;
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const others = Object.entries(all ?? {}).filter(([group]) => !KNOWN_GROUP_NAMES.has(group));
  return (
    <Stack>
      <Title order={1} size="h2">
        Settings
      </Title>
      <ErrorNote error={error} />
      {!all && !error && <Text>Loading…</Text>}
      {all && SETTINGS_GROUPS.map((spec) => <GroupForm key={spec.group} spec={spec} values={all[spec.group] ?? {}} onSaved={reload} />)}
      {others.map(([group, values]) => (
        <OtherGroup key={group} group={group} values={values} onSaved={reload} />
      ))}
    </Stack>
  );
}

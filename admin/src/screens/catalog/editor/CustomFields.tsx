// Custom fields: one input per field definition of the entity's type (string, number, boolean,
// date, enum, json), saved as the catalogEntityUpdate `customFields` patch for the chosen locale:
// only changed fields are sent, an emptied one is null (cleared; 422 when it is required). A 422
// names `customFields.<name>`, which lands on that input.
import { useState } from 'react';
import { Button, Group, NumberInput, Select, SimpleGrid, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Controller, useForm, type FieldValues } from 'react-hook-form';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../../gql';
import { applyFieldIssues } from '../../../api/errors';

const DefinitionsQuery = graphql(`
  query AdminFieldDefinitions($entityType: String!) {
    catalogFieldDefinitions(entityType: $entityType) {
      id
      name
      label
      description
      type
      required
      enumValues
    }
  }
`);
const UpdateCustomFields = graphql(`
  mutation AdminEntityCustomFields($id: UUID!, $locale: String, $customFields: JSONObject!) {
    catalogEntityUpdate(id: $id, locale: $locale, customFields: $customFields) {
      id
    }
  }
`);

interface Stored {
  fieldName: string;
  locale: string;
  value: unknown;
}

/** A stored value as the input shows it (json as text, the rest as is). */
function shown(type: string, value: unknown): unknown {
  if (value === undefined || value === null) return type === 'boolean' ? false : '';
  if (type === 'json') return JSON.stringify(value, null, 2);
  if (type === 'date') return String(value).slice(0, 10);
  return value;
}

/** The input's value as the API takes it; null clears the field. */
function sent(type: string, value: unknown): unknown {
  if (type === 'boolean') return Boolean(value);
  if (value === '' || value === undefined || value === null) return null;
  if (type === 'number') return Number(value);
  if (type === 'json') return JSON.parse(String(value));
  return value;
}

export function CustomFields({ entityId, entityType, locale, stored, onChanged }: { entityId: string; entityType: string; locale: string; stored: Stored[]; onChanged(): void }) {
  const [{ data, error }] = useQuery({ query: DefinitionsQuery, variables: { entityType } });
  const [state, update] = useMutation(UpdateCustomFields);
  const [problem, setProblem] = useState<string | null>(null);
  const definitions = data?.catalogFieldDefinitions ?? [];
  const values = Object.fromEntries(definitions.map((d) => [d.name, shown(d.type, stored.find((s) => s.fieldName === d.name && s.locale === locale)?.value)]));
  const form = useForm<FieldValues>({ values });
  if (error) return <Text size="sm">Custom field definitions are not available to you.</Text>;
  if (!definitions.length)
    return <Text size="sm">No custom fields are defined for the type “{entityType}” (Settings → field definitions, POST /api/admin/entity-field-definitions).</Text>;

  const submit = form.handleSubmit(async (raw) => {
    setProblem(null);
    const dirty = Object.keys(form.formState.dirtyFields);
    const patch = Object.fromEntries(definitions.filter((d) => dirty.includes(d.name)).map((d) => [d.name, sent(d.type, raw[d.name])]));
    if (!Object.keys(patch).length) return;
    const result = await update({ id: entityId, locale, customFields: patch });
    if (result.error)
      return setProblem(
        applyFieldIssues(
          result.error,
          definitions.map((d) => d.name),
          form.setError,
        ),
      );
    notifications.show({ message: `Saved custom fields (${locale})` });
    onChanged();
  });
  return (
    <form onSubmit={submit} noValidate>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {definitions.map((d) => {
          const common = {
            label: d.label || d.name,
            description: d.description ?? undefined,
            required: d.required,
            error: form.formState.errors[d.name]?.message as string | undefined,
          };
          const requiredRule = d.required ? { required: `${d.label || d.name} is required` } : {};
          if (d.type === 'boolean')
            return (
              <Controller
                key={d.id}
                control={form.control}
                name={d.name}
                render={({ field }) => (
                  <Switch {...common} mt="md" checked={Boolean(field.value)} onChange={(e) => field.onChange(e.currentTarget.checked)} onBlur={field.onBlur} />
                )}
              />
            );
          if (d.type === 'enum')
            return (
              <Controller
                key={d.id}
                control={form.control}
                name={d.name}
                rules={requiredRule}
                render={({ field }) => (
                  <Select
                    {...common}
                    data={d.enumValues}
                    value={(field.value as string) || null}
                    onChange={(v) => field.onChange(v ?? '')}
                    onBlur={field.onBlur}
                    clearable={!d.required}
                  />
                )}
              />
            );
          if (d.type === 'number')
            return (
              <Controller
                key={d.id}
                control={form.control}
                name={d.name}
                rules={requiredRule}
                render={({ field }) => <NumberInput {...common} value={field.value as number | string} onChange={field.onChange} onBlur={field.onBlur} />}
              />
            );
          if (d.type === 'json')
            return (
              <Textarea
                key={d.id}
                {...common}
                autosize
                minRows={2}
                styles={{ input: { fontFamily: 'monospace' } }}
                {...form.register(d.name, {
                  ...requiredRule,
                  validate: (v) => {
                    if (!v) return true;
                    try {
                      JSON.parse(String(v));
                      return true;
                    } catch {
                      return 'Not valid JSON';
                    }
                  },
                })}
              />
            );
          return <TextInput key={d.id} {...common} type={d.type === 'date' ? 'date' : 'text'} {...form.register(d.name, requiredRule)} />;
        })}
      </SimpleGrid>
      {problem && (
        <Text c="red.8" role="alert" mt="xs">
          {problem}
        </Text>
      )}
      <Group mt="sm">
        <Button type="submit" variant="default" loading={state.fetching} disabled={!form.formState.isDirty}>
          Save custom fields
        </Button>
      </Group>
    </form>
  );
}

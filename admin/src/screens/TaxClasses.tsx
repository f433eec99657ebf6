// Tax classes: name, rate (basis points shown as a percentage), default and active flags; create.
import { useState } from 'react';
import { Button, Group, NumberInput, TextInput } from '@mantine/core';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { applyFieldIssues } from '../api/errors';
import { ListScreen } from '../components/ListScreen';

const TaxClassesQuery = graphql(`
  query AdminTaxClasses {
    taxClasses {
      id
      name
      description
      rateBps
      isDefault
      isActive
    }
  }
`);

const CreateTaxClass = graphql(`
  mutation AdminTaxClassCreate($name: String!, $rateBps: Int!) {
    taxClassCreate(name: $name, rateBps: $rateBps) {
      id
    }
  }
`);

export default function TaxClasses() {
  const [{ data, error }, refetch] = useQuery({ query: TaxClassesQuery });
  const [state, create] = useMutation(CreateTaxClass);
  const [name, setName] = useState('');
  const [rate, setRate] = useState<number>(0);
  const [errors, setErrors] = useState<Record<string, string>>({});
  async function submit() {
    setErrors({});
    const result = await create({ name, rateBps: Math.round(rate * 100) });
    if (result.error) {
      const found: Record<string, string> = {};
      applyFieldIssues(result.error, ['name', 'rateBps'], ((field: string, value: { message: string }) => (found[field] = value.message)) as never);
      setErrors(found);
    } else {
      setName('');
      refetch({ requestPolicy: 'network-only' });
    }
  }
  return (
    <ListScreen
      title="Tax classes"
      page={data?.taxClasses ? { data: data.taxClasses } : null}
      error={error ?? (Object.keys(errors).length ? undefined : state.error)}
      rowKey={(t) => t.id}
      columns={[
        { key: 'name', title: 'Name', render: (t) => t.name },
        { key: 'rate', title: 'Rate', align: 'right', render: (t) => `${(t.rateBps / 100).toFixed(2)} %` },
        { key: 'default', title: 'Default', render: (t) => (t.isDefault ? 'yes' : '') },
        { key: 'active', title: 'Active', render: (t) => (t.isActive ? 'yes' : 'no') },
        { key: 'description', title: 'Description', render: (t) => t.description ?? '' },
      ]}
    >
      <Group align="start" mb="md">
        <TextInput label="Name" value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} />
        <NumberInput label="Rate (%)" value={rate} onChange={(v) => setRate(Number(v) || 0)} decimalScale={2} w={120} error={errors.rateBps} />
        <Button mt={25} onClick={submit} loading={state.fetching}>
          Add tax class
        </Button>
      </Group>
    </ListScreen>
  );
}

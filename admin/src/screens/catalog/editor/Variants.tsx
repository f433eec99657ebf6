// Options and variants of an entity: option types (renamed, reordered and extended in
// OptionTypes.tsx), the generated matrix, one variant added by its option values, and each
// variant's SKU, title and status edited in its row (a duplicate SKU is 409 and lands on the SKU
// field; only active variants are sold). Option values are a variant's identity
// (catalogVariantUpdate does not change them): another combination is another variant.
import { useState } from 'react';
import { Button, Group, NativeSelect, Select, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useForm } from 'react-hook-form';
import { useMutation } from 'urql';
import { graphql } from '../../../gql';
import { applyFieldIssues, errorMessage } from '../../../api/errors';
import { ErrorNote } from '../../../components/ErrorNote';
import { money } from '../../../format';
import type { CatalogVariantStatus } from '../../../gql/graphql';
import { OptionTypes, type OptionType } from './OptionTypes';

export type { OptionType } from './OptionTypes';

const STATUSES: CatalogVariantStatus[] = ['active', 'draft', 'archived'];

const CreateOptionType = graphql(`
  mutation AdminOptionTypeCreate($id: UUID!, $name: String!, $values: [String!]) {
    catalogOptionTypeCreate(id: $id, name: $name, values: $values) {
      id
    }
  }
`);
const GenerateVariants = graphql(`
  mutation AdminVariantsGenerate($id: UUID!, $skuPrefix: String) {
    catalogVariantsGenerate(id: $id, skuPrefix: $skuPrefix) {
      created {
        id
      }
    }
  }
`);
const QuickCreateVariant = graphql(`
  mutation AdminVariantQuickCreate($id: UUID!, $options: JSONObject!, $sku: String) {
    catalogVariantQuickCreate(id: $id, options: $options, sku: $sku) {
      id
    }
  }
`);
const UpdateVariant = graphql(`
  mutation AdminVariantUpdate($variantId: UUID!, $sku: String, $title: String, $status: CatalogVariantStatus) {
    catalogVariantUpdate(variantId: $variantId, sku: $sku, title: $title, status: $status) {
      id
      sku
      title
      status
    }
  }
`);
const DeleteVariant = graphql(`
  mutation AdminVariantDelete($variantId: UUID!) {
    catalogVariantDelete(variantId: $variantId) {
      id
    }
  }
`);

export interface Variant {
  id: string;
  sku: string;
  title?: string | null;
  status?: CatalogVariantStatus;
  options: Record<string, unknown>;
}
export interface PriceRow {
  id: string;
  currency: string;
  amount: number;
  customerGroupId?: string | null;
  variantId?: string | null;
}

export function optionsLabel(v: Variant): string {
  return Object.entries(v.options)
    .map(([k, val]) => `${k}: ${String(val)}`)
    .join(', ');
}

function VariantRow({ variant, prices, onChanged }: { variant: Variant; prices: PriceRow[]; onChanged(): void }) {
  const [state, update] = useMutation(UpdateVariant);
  const [deleteState, remove] = useMutation(DeleteVariant);
  const form = useForm<{ sku: string; title: string; status: CatalogVariantStatus }>({
    values: { sku: variant.sku, title: variant.title ?? '', status: variant.status ?? 'active' },
  });
  const formId = `variant-${variant.id}`;
  const label = optionsLabel(variant) || variant.sku;
  const submit = form.handleSubmit(async (values) => {
    const result = await update({ variantId: variant.id, sku: values.sku.trim(), title: values.title.trim() || undefined, status: values.status });
    if (result.error) {
      const unplaced = applyFieldIssues(result.error, ['sku', 'title', 'status'], form.setError);
      // A duplicate SKU is a 409 without details: it still belongs on the SKU field.
      if (unplaced) form.setError('sku', { message: unplaced });
      return;
    }
    notifications.show({ message: `Saved ${values.sku}` });
    onChanged();
  });
  async function del() {
    if (!window.confirm(`Delete variant ${variant.sku}?`)) return;
    const result = await remove({ variantId: variant.id });
    if (result.error) notifications.show({ color: 'red', message: errorMessage(result.error) });
    onChanged();
  }
  return (
    <Table.Tr>
      <Table.Td>
        <form id={formId} onSubmit={submit} noValidate />
        <TextInput
          form={formId}
          aria-label={`SKU of ${label}`}
          size="xs"
          {...form.register('sku', { required: 'A SKU is required', maxLength: { value: 100, message: 'At most 100 characters' } })}
          error={form.formState.errors.sku?.message}
        />
      </Table.Td>
      <Table.Td>{optionsLabel(variant) || '—'}</Table.Td>
      <Table.Td>
        <TextInput form={formId} aria-label={`Title of ${label}`} size="xs" placeholder="Option values" {...form.register('title')} error={form.formState.errors.title?.message} />
      </Table.Td>
      <Table.Td>
        <NativeSelect form={formId} aria-label={`Status of ${label}`} size="xs" data={STATUSES} {...form.register('status')} error={form.formState.errors.status?.message} />
      </Table.Td>
      <Table.Td>
        {prices
          .filter((p) => p.variantId === variant.id)
          .map((p) => money(p.amount, p.currency) + (p.customerGroupId ? ` (${p.customerGroupId})` : ''))
          .join(', ') || '—'}
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button type="submit" form={formId} size="xs" variant="default" loading={state.fetching} disabled={!form.formState.isDirty} aria-label={`Save ${label}`}>
            Save
          </Button>
          <Button size="xs" variant="subtle" color="red" c="red.9" onClick={del} loading={deleteState.fetching} aria-label={`Delete ${label}`}>
            Delete
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

function AddVariant({ entityId, optionTypes, onChanged }: { entityId: string; optionTypes: OptionType[]; onChanged(): void }) {
  const [state, quickCreate] = useMutation(QuickCreateVariant);
  const [choice, setChoice] = useState<Record<string, string>>({});
  const [sku, setSku] = useState('');
  const complete = optionTypes.every((o) => choice[o.name]);
  async function add() {
    const result = await quickCreate({ id: entityId, options: choice, sku: sku.trim() || undefined });
    if (!result.error) {
      setSku('');
      onChanged();
    }
  }
  return (
    <>
      <Group align="end" mt="sm">
        {optionTypes.map((o) => (
          <Select
            key={o.id}
            label={o.name}
            data={o.values.map((v) => v.value)}
            value={choice[o.name] ?? null}
            onChange={(v) => setChoice((c) => ({ ...c, [o.name]: v ?? '' }))}
            w={140}
          />
        ))}
        <TextInput label="New variant SKU" placeholder="generated" value={sku} onChange={(e) => setSku(e.currentTarget.value)} w={180} />
        <Button variant="default" onClick={add} loading={state.fetching} disabled={!complete}>
          Add variant
        </Button>
      </Group>
      <ErrorNote error={state.error} />
    </>
  );
}

export function Variants({
  entityId,
  slug,
  optionTypes,
  variants,
  prices,
  onChanged,
}: {
  entityId: string;
  slug: string;
  optionTypes: OptionType[];
  variants: Variant[];
  prices: PriceRow[];
  onChanged(): void;
}) {
  const [optionState, createOption] = useMutation(CreateOptionType);
  const [generateState, generate] = useMutation(GenerateVariants);
  const [optionName, setOptionName] = useState('');
  const [optionValues, setOptionValues] = useState('');
  async function addOption() {
    const values = optionValues
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    const result = await createOption({ id: entityId, name: optionName.trim(), values });
    if (!result.error) {
      setOptionName('');
      setOptionValues('');
      onChanged();
    }
  }
  return (
    <>
      <OptionTypes optionTypes={optionTypes} onChanged={onChanged} />
      <Group align="end" mt="sm">
        <TextInput label="Option name" placeholder="Size" value={optionName} onChange={(e) => setOptionName(e.currentTarget.value)} />
        <TextInput label="Values (comma separated)" placeholder="S, M, L" value={optionValues} onChange={(e) => setOptionValues(e.currentTarget.value)} />
        <Button variant="default" onClick={addOption} loading={optionState.fetching}>
          Add option type
        </Button>
        <Button onClick={() => generate({ id: entityId, skuPrefix: slug.toUpperCase() }).then(onChanged)} loading={generateState.fetching} disabled={!optionTypes.length}>
          Generate variants
        </Button>
      </Group>
      <ErrorNote error={optionState.error ?? generateState.error} />
      <Table.ScrollContainer minWidth={880} mt="sm">
        <Table aria-label="Variants">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>SKU</Table.Th>
              <Table.Th>Options</Table.Th>
              <Table.Th>Title</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Prices</Table.Th>
              <Table.Th>Actions</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {variants.map((v) => (
              <VariantRow key={v.id} variant={v} prices={prices} onChanged={onChanged} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {!variants.length && <Text size="sm">No variants yet.</Text>}
      {optionTypes.length > 0 && <AddVariant entityId={entityId} optionTypes={optionTypes} onChanged={onChanged} />}
    </>
  );
}

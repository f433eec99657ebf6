// Prices of an entity and its variants, per currency and customer group: each row's amount edited
// in place (priceUpdate) or deleted (priceDelete), and a new price for the product or one variant.
import { Button, Group, Select, Table, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useForm } from 'react-hook-form';
import { useMutation } from 'urql';
import { graphql } from '../../../gql';
import { applyFieldIssues, errorMessage } from '../../../api/errors';
import { money, toMinor } from '../../../format';
import type { PriceRow, Variant } from './Variants';

const CreatePrice = graphql(`
  mutation AdminPriceCreate($entityId: UUID!, $variantId: UUID, $currency: String!, $amount: MinorUnits!, $customerGroupId: String) {
    priceCreate(entityId: $entityId, variantId: $variantId, currency: $currency, amount: $amount, customerGroupId: $customerGroupId) {
      id
    }
  }
`);
const UpdatePrice = graphql(`
  mutation AdminPriceUpdate($id: UUID!, $amount: MinorUnits!) {
    priceUpdate(id: $id, amount: $amount) {
      id
      amount
    }
  }
`);
const DeletePrice = graphql(`
  mutation AdminPriceDelete($id: UUID!) {
    priceDelete(id: $id) {
      id
    }
  }
`);

const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CAD', 'AUD', 'CHF'];
const AMOUNT = { value: /^\d+(\.\d{1,3})?$/, message: 'An amount such as 19.99' };

/** The amount in the currency's major unit, as typed ("25.00"; "2500" for JPY). */
function major(minor: number, currency: string): string {
  const digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return (minor / 10 ** digits).toFixed(digits);
}

function PriceLine({ price, appliesTo, onChanged }: { price: PriceRow; appliesTo: string; onChanged(): void }) {
  const [state, update] = useMutation(UpdatePrice);
  const [deleteState, remove] = useMutation(DeletePrice);
  const form = useForm<{ amount: string }>({ values: { amount: major(price.amount, price.currency) } });
  const formId = `price-${price.id}`;
  const name = `${appliesTo}, ${price.currency}, ${price.customerGroupId ?? 'everyone'}`;
  const submit = form.handleSubmit(async ({ amount }) => {
    const result = await update({ id: price.id, amount: toMinor(amount, price.currency) });
    if (result.error) {
      const unplaced = applyFieldIssues(result.error, ['amount'], form.setError);
      if (unplaced) form.setError('amount', { message: unplaced });
      return;
    }
    notifications.show({ message: `Saved ${money(toMinor(amount, price.currency), price.currency)}` });
    onChanged();
  });
  async function del() {
    const result = await remove({ id: price.id });
    if (result.error) notifications.show({ color: 'red', message: errorMessage(result.error) });
    onChanged();
  }
  return (
    <Table.Tr>
      <Table.Td>{appliesTo}</Table.Td>
      <Table.Td>{price.currency}</Table.Td>
      <Table.Td>{price.customerGroupId ?? 'everyone'}</Table.Td>
      <Table.Td>{money(price.amount, price.currency)}</Table.Td>
      <Table.Td>
        <form id={formId} onSubmit={submit} noValidate />
        <TextInput
          form={formId}
          aria-label={`New amount for ${name}`}
          size="xs"
          w={110}
          {...form.register('amount', { required: 'Required', pattern: AMOUNT })}
          error={form.formState.errors.amount?.message}
        />
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          <Button type="submit" form={formId} size="xs" variant="default" disabled={!form.formState.isDirty} loading={state.fetching} aria-label={`Save price ${name}`}>
            Save
          </Button>
          <Button size="xs" variant="subtle" color="red" c="red.9" onClick={del} loading={deleteState.fetching} aria-label={`Delete price ${name}`}>
            Delete
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

interface NewPrice {
  variantId: string;
  currency: string;
  amount: string;
  customerGroupId: string;
}

function AddPrice({ entityId, variants, onChanged }: { entityId: string; variants: Variant[]; onChanged(): void }) {
  const [state, create] = useMutation(CreatePrice);
  const form = useForm<NewPrice>({ defaultValues: { variantId: '', currency: 'USD', amount: '', customerGroupId: '' } });
  const submit = form.handleSubmit(async (values) => {
    const result = await create({
      entityId,
      variantId: values.variantId || undefined,
      currency: values.currency,
      amount: toMinor(values.amount, values.currency),
      customerGroupId: values.customerGroupId.trim() || undefined,
    });
    if (result.error) {
      // A price that exists for this currency and group is 409 without details: say so on the amount.
      const unplaced = applyFieldIssues(result.error, ['variantId', 'currency', 'amount', 'customerGroupId'], form.setError);
      if (unplaced) form.setError('amount', { message: unplaced });
      return;
    }
    form.reset({ ...values, amount: '' });
    onChanged();
  });
  return (
    <form onSubmit={submit} noValidate>
      <Group align="start" mt="sm">
        <Select
          label="Applies to"
          data={[{ value: '', label: 'The product' }, ...variants.map((v) => ({ value: v.id, label: v.sku }))]}
          value={form.watch('variantId')}
          onChange={(v) => form.setValue('variantId', v ?? '')}
          allowDeselect={false}
          error={form.formState.errors.variantId?.message}
        />
        <Select
          label="Currency"
          data={CURRENCIES}
          value={form.watch('currency')}
          onChange={(v) => form.setValue('currency', v ?? 'USD')}
          w={100}
          allowDeselect={false}
          error={form.formState.errors.currency?.message}
        />
        <TextInput
          label="Amount"
          placeholder="19.99"
          w={120}
          {...form.register('amount', { required: 'Required', pattern: AMOUNT })}
          error={form.formState.errors.amount?.message}
        />
        <TextInput label="Customer group" placeholder="optional" w={150} {...form.register('customerGroupId')} error={form.formState.errors.customerGroupId?.message} />
        <Button type="submit" variant="default" loading={state.fetching} mt={25}>
          Add price
        </Button>
      </Group>
    </form>
  );
}

export function Prices({ entityId, prices, variants, onChanged }: { entityId: string; prices: PriceRow[]; variants: Variant[]; onChanged(): void }) {
  const sku = new Map(variants.map((v) => [v.id, v.sku]));
  // The product's own prices first, then each variant's, by currency and group.
  const rows = [...prices].sort(
    (a, b) =>
      Number(Boolean(a.variantId)) - Number(Boolean(b.variantId)) ||
      (sku.get(a.variantId ?? '') ?? '').localeCompare(sku.get(b.variantId ?? '') ?? '') ||
      a.currency.localeCompare(b.currency) ||
      (a.customerGroupId ?? '').localeCompare(b.customerGroupId ?? ''),
  );
  return (
    <>
      {rows.length ? (
        <Table.ScrollContainer minWidth={700}>
          <Table aria-label="Prices">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Applies to</Table.Th>
                <Table.Th>Currency</Table.Th>
                <Table.Th>Customer group</Table.Th>
                <Table.Th>Price</Table.Th>
                <Table.Th>New amount</Table.Th>
                <Table.Th>Actions</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((p) => (
                <PriceLine key={p.id} price={p} appliesTo={p.variantId ? (sku.get(p.variantId) ?? p.variantId) : 'The product'} onChanged={onChanged} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : (
        <Text size="sm">No prices yet.</Text>
      )}
      <AddPrice entityId={entityId} variants={variants} onChanged={onChanged} />
    </>
  );
}

// The entity's brands: remove one, add an existing one, or create a brand and add it at once.
import { Badge, Button, CloseButton, Group, Select, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useForm } from 'react-hook-form';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../../gql';
import { applyFieldIssues, errorMessage } from '../../../api/errors';

const BrandsQuery = graphql(`
  query AdminBrands {
    catalogBrands(first: 100) {
      data {
        id
        name
      }
    }
  }
`);
const AddBrand = graphql(`
  mutation AdminEntityBrandAdd($id: UUID!, $brandId: UUID!) {
    catalogEntityBrandAdd(id: $id, brandId: $brandId) {
      id
    }
  }
`);
const RemoveBrand = graphql(`
  mutation AdminEntityBrandRemove($id: UUID!, $brandId: UUID!) {
    catalogEntityBrandRemove(id: $id, brandId: $brandId) {
      id
    }
  }
`);
const CreateBrand = graphql(`
  mutation AdminBrandCreate($name: String!, $slug: String!) {
    catalogBrandCreate(name: $name, slug: $slug) {
      id
    }
  }
`);

const slugOf = (name: string) =>
  name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

export function Brands({ entityId, brands, onChanged }: { entityId: string; brands: { id: string; name: string }[]; onChanged(): void }) {
  const [{ data }, refetchBrands] = useQuery({ query: BrandsQuery });
  const [, add] = useMutation(AddBrand);
  const [, remove] = useMutation(RemoveBrand);
  const [createState, create] = useMutation(CreateBrand);
  const form = useForm<{ name: string; slug: string }>({ defaultValues: { name: '', slug: '' } });
  const have = new Set(brands.map((b) => b.id));
  const options = (data?.catalogBrands?.data ?? []).filter((b) => !have.has(b.id)).map((b) => ({ value: b.id, label: b.name }));

  async function run(action: Promise<{ error?: Parameters<typeof errorMessage>[0] }>) {
    const result = await action;
    if (result.error) notifications.show({ color: 'red', message: errorMessage(result.error) });
    onChanged();
  }
  const createAndAdd = form.handleSubmit(async (values) => {
    const created = await create({ name: values.name.trim(), slug: values.slug.trim() || slugOf(values.name) });
    const brandId = created.data?.catalogBrandCreate?.id;
    if (!brandId) {
      const unplaced = applyFieldIssues(created.error, ['name', 'slug'], form.setError);
      // A taken slug is 409 without details: it belongs on the slug field.
      if (unplaced) form.setError('slug', { message: unplaced });
      return;
    }
    form.reset();
    refetchBrands({ requestPolicy: 'network-only' });
    await run(add({ id: entityId, brandId }));
  });
  return (
    <>
      {brands.length ? (
        <Group gap="xs" mb="sm" role="list" aria-label="Brands of this product">
          {brands.map((b) => (
            <Badge
              key={b.id}
              role="listitem"
              variant="light"
              color="dark"
              size="lg"
              tt="none"
              rightSection={<CloseButton size="xs" aria-label={`Remove brand ${b.name}`} onClick={() => run(remove({ id: entityId, brandId: b.id }))} />}
            >
              {b.name}
            </Badge>
          ))}
        </Group>
      ) : (
        <Text size="sm" mb="sm">
          No brand.
        </Text>
      )}
      <Group align="start">
        <Select
          label="Add brand"
          placeholder="Choose a brand"
          data={options}
          value={null}
          onChange={(brandId) => brandId && run(add({ id: entityId, brandId }))}
          searchable
          w={240}
        />
        <form onSubmit={createAndAdd} noValidate>
          <Group align="start">
            <TextInput label="New brand" placeholder="Acme" {...form.register('name', { required: 'A name is required' })} error={form.formState.errors.name?.message} />
            <TextInput
              label="Brand slug"
              placeholder="from the name"
              {...form.register('slug', { pattern: { value: /^[a-z0-9]+(-[a-z0-9]+)*$/, message: 'Lowercase letters, digits and dashes' } })}
              error={form.formState.errors.slug?.message}
            />
            <Button type="submit" variant="default" mt={25} loading={createState.fetching}>
              Create and add
            </Button>
          </Group>
        </form>
      </Group>
    </>
  );
}

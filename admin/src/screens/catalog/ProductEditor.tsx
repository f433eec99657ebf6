// The product editor. New: type, slug, title → catalogEntityCreate (+ the title for the locale).
// Existing: attributes per locale, option types and the generated variants matrix, prices per
// currency (and customer group), media by drag and drop with preview, categories, status.
// A 422 lands on the form field it names (api/errors.ts).
import { useState } from 'react';
import { Badge, Button, Card, Group, Image, Select, SimpleGrid, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { Dropzone, IMAGE_MIME_TYPE } from '@mantine/dropzone';
import { notifications } from '@mantine/notifications';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router-dom';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { applyFieldIssues, errorMessage } from '../../api/errors';
import { ErrorNote } from '../../components/ErrorNote';
import { money, toMinor } from '../../format';

const EntityQuery = graphql(`
  query AdminEntity($id: String!) {
    catalogEntity(idOrSlug: $id) {
      id
      slug
      type
      status
      attributes {
        locale
        title
        description
      }
      optionTypes {
        id
        name
        values {
          id
          value
        }
      }
      variants {
        id
        sku
        options
      }
      pricing {
        id
        currency
        amount
        customerGroupId
        variantId
      }
      media {
        id
        role
        asset {
          id
          url
          alt
        }
      }
      categories {
        id
        name
      }
    }
    catalogCategories(first: 100) {
      data {
        id
        name
      }
    }
  }
`);

const CreateEntity = graphql(`
  mutation AdminEntityCreate($type: String!, $slug: String!) {
    catalogEntityCreate(type: $type, slug: $slug) {
      id
    }
  }
`);
const SetAttributes = graphql(`
  mutation AdminAttributesSet($id: UUID!, $locale: String!, $title: String, $description: String) {
    catalogEntityAttributesSet(id: $id, locale: $locale, title: $title, description: $description) {
      locale
    }
  }
`);
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
const CreatePrice = graphql(`
  mutation AdminPriceCreate($entityId: UUID!, $variantId: UUID, $currency: String!, $amount: MinorUnits!, $customerGroupId: String) {
    priceCreate(entityId: $entityId, variantId: $variantId, currency: $currency, amount: $amount, customerGroupId: $customerGroupId) {
      id
    }
  }
`);
const UploadMedia = graphql(`
  mutation AdminMediaUpload($file: File!, $alt: String) {
    mediaUpload(file: $file, alt: $alt) {
      id
    }
  }
`);
const AttachMedia = graphql(`
  mutation AdminMediaAttach($entityId: UUID!, $mediaAssetId: UUID!, $role: String!) {
    mediaAttach(entityId: $entityId, mediaAssetId: $mediaAssetId, role: $role) {
      id
    }
  }
`);
const AddCategory = graphql(`
  mutation AdminCategoryAdd($id: UUID!, $categoryId: UUID!) {
    catalogEntityCategoryAdd(id: $id, categoryId: $categoryId) {
      id
    }
  }
`);
const Publish = graphql(`
  mutation AdminPublish($id: UUID!) {
    catalogEntityPublish(id: $id) {
      id
      status
    }
  }
`);

function NewProduct() {
  const navigate = useNavigate();
  const [createState, create] = useMutation(CreateEntity);
  const [, setAttributes] = useMutation(SetAttributes);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<{ type: string; slug: string; title: string }>({ defaultValues: { type: 'product', slug: '', title: '' } });
  const submit = form.handleSubmit(async (values) => {
    setFormError(null);
    const created = await create({ type: values.type, slug: values.slug });
    const id = created.data?.catalogEntityCreate?.id;
    if (!id) return setFormError(applyFieldIssues(created.error, ['type', 'slug'], form.setError));
    if (values.title) await setAttributes({ id, locale: 'en', title: values.title });
    await navigate(`/catalog/${id}`);
  });
  return (
    <Card withBorder maw={560}>
      <Title order={1} size="h2" mb="md">
        New product
      </Title>
      <form onSubmit={submit} noValidate>
        <Stack>
          <TextInput label="Type" {...form.register('type')} error={form.formState.errors.type?.message} />
          <TextInput label="Slug" required {...form.register('slug')} error={form.formState.errors.slug?.message} />
          <TextInput label="Title (en)" {...form.register('title')} />
          {formError && <Text c="red.8">{formError}</Text>}
          <Button type="submit" loading={createState.fetching}>
            Create
          </Button>
        </Stack>
      </form>
    </Card>
  );
}

export default function ProductEditor() {
  const { id = '' } = useParams();
  if (id === 'new') return <NewProduct />;
  return <EditProduct id={id} />;
}

function EditProduct({ id }: { id: string }) {
  const [{ data, error }, refetch] = useQuery({ query: EntityQuery, variables: { id } });
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const [, setAttributes] = useMutation(SetAttributes);
  const [optionState, createOption] = useMutation(CreateOptionType);
  const [generateState, generate] = useMutation(GenerateVariants);
  const [priceState, createPrice] = useMutation(CreatePrice);
  const [uploadState, upload] = useMutation(UploadMedia);
  const [, attach] = useMutation(AttachMedia);
  const [, addCategory] = useMutation(AddCategory);
  const [, publish] = useMutation(Publish);
  const [locale, setLocale] = useState('en');
  const [optionName, setOptionName] = useState('');
  const [optionValues, setOptionValues] = useState('');
  const [currency, setCurrency] = useState('USD');
  const [amount, setAmount] = useState('');
  const [group, setGroup] = useState('');
  const [variantId, setVariantId] = useState<string | null>(null);
  const [preview, setPreview] = useState<string | null>(null);
  const entity = data?.catalogEntity;
  const attrs = entity?.attributes?.find((a) => a.locale === locale);
  const attrForm = useForm<{ title: string; description: string }>({ values: { title: attrs?.title ?? '', description: attrs?.description ?? '' } });
  if (error) return <ErrorNote error={error} />;
  if (!entity) return <Text>Loading…</Text>;

  const saveAttributes = attrForm.handleSubmit(async (values) => {
    const result = await setAttributes({ id: entity.id, locale, title: values.title || undefined, description: values.description || undefined });
    const unplaced = result.error ? applyFieldIssues(result.error, ['title', 'description'], attrForm.setError) : null;
    if (unplaced) notifications.show({ color: 'red', message: unplaced });
    else if (!result.error) notifications.show({ message: `Saved ${locale}` });
    reload();
  });

  async function addOption() {
    const values = optionValues
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
    const result = await createOption({ id: entity!.id, name: optionName.trim(), values });
    if (!result.error) {
      setOptionName('');
      setOptionValues('');
      reload();
    }
  }
  async function addPrice() {
    const result = await createPrice({ entityId: entity!.id, variantId, currency, amount: toMinor(amount, currency), customerGroupId: group || undefined });
    if (!result.error) {
      setAmount('');
      reload();
    }
  }
  async function onDrop(files: File[]) {
    for (const file of files) {
      setPreview(URL.createObjectURL(file));
      const uploaded = await upload({ file, alt: file.name });
      const assetId = uploaded.data?.mediaUpload.id;
      if (!assetId) continue;
      const attached = await attach({ entityId: entity!.id, mediaAssetId: assetId, role: 'gallery' });
      if (attached.error) notifications.show({ color: 'red', message: errorMessage(attached.error) });
    }
    setPreview(null);
    reload();
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          {entity.attributes?.find((a) => a.locale === 'en')?.title ?? entity.slug}
        </Title>
        <Group>
          <Badge>{entity.status}</Badge>
          {entity.status !== 'active' && (
            <Button variant="default" onClick={() => publish({ id: entity.id }).then(reload)}>
              Publish
            </Button>
          )}
        </Group>
      </Group>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Attributes
        </Title>
        <form onSubmit={saveAttributes} noValidate>
          <Group align="start">
            <Select label="Locale" data={['en', 'de', 'fr', 'es', 'it', 'nl']} value={locale} onChange={(v) => setLocale(v ?? 'en')} w={100} allowDeselect={false} />
            <Stack style={{ flex: 1 }}>
              <TextInput label="Title" {...attrForm.register('title')} error={attrForm.formState.errors.title?.message} />
              <Textarea label="Description" autosize minRows={2} {...attrForm.register('description')} error={attrForm.formState.errors.description?.message} />
              <Button type="submit" variant="default" w={160}>
                Save attributes
              </Button>
            </Stack>
          </Group>
        </form>
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Options and variants
        </Title>
        {(entity.optionTypes ?? []).map((o) => (
          <Text key={o.id} size="sm">
            <b>{o.name}</b>: {o.values.map((v) => v.value).join(', ')}
          </Text>
        ))}
        <Group align="end" mt="sm">
          <TextInput label="Option name" placeholder="Size" value={optionName} onChange={(e) => setOptionName(e.currentTarget.value)} />
          <TextInput label="Values (comma separated)" placeholder="S, M, L" value={optionValues} onChange={(e) => setOptionValues(e.currentTarget.value)} />
          <Button variant="default" onClick={addOption} loading={optionState.fetching}>
            Add option type
          </Button>
          <Button
            onClick={() => generate({ id: entity.id, skuPrefix: entity.slug.toUpperCase() }).then(reload)}
            loading={generateState.fetching}
            disabled={!entity.optionTypes?.length}
          >
            Generate variants
          </Button>
        </Group>
        <ErrorNote error={optionState.error ?? generateState.error} />
        <Table mt="sm" aria-label="Variants">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>SKU</Table.Th>
              <Table.Th>Options</Table.Th>
              <Table.Th>Prices</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(entity.variants ?? []).map((v) => (
              <Table.Tr key={v.id}>
                <Table.Td>{v.sku}</Table.Td>
                <Table.Td>
                  {Object.entries(v.options)
                    .map(([k, val]) => `${k}: ${String(val)}`)
                    .join(', ')}
                </Table.Td>
                <Table.Td>
                  {(entity.pricing ?? [])
                    .filter((p) => p.variantId === v.id)
                    .map((p) => money(p.amount, p.currency))
                    .join(', ') || '—'}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Prices
        </Title>
        {(entity.pricing ?? [])
          .filter((p) => !p.variantId)
          .map((p) => (
            <Text key={p.id} size="sm">
              {money(p.amount, p.currency)} {p.customerGroupId ? `(group ${p.customerGroupId})` : '(everyone)'}
            </Text>
          ))}
        <Group align="end" mt="sm">
          <Select
            label="Applies to"
            data={[{ value: '', label: 'The product' }, ...(entity.variants ?? []).map((v) => ({ value: v.id, label: v.sku }))]}
            value={variantId ?? ''}
            onChange={(v) => setVariantId(v || null)}
            allowDeselect={false}
          />
          <Select label="Currency" data={['USD', 'EUR', 'GBP', 'JPY']} value={currency} onChange={(v) => setCurrency(v ?? 'USD')} w={100} allowDeselect={false} />
          <TextInput label="Amount" placeholder="19.99" value={amount} onChange={(e) => setAmount(e.currentTarget.value)} w={120} />
          <TextInput label="Customer group" placeholder="optional" value={group} onChange={(e) => setGroup(e.currentTarget.value)} w={150} />
          <Button variant="default" onClick={addPrice} loading={priceState.fetching} disabled={!amount}>
            Add price
          </Button>
        </Group>
        <ErrorNote error={priceState.error} />
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Media
        </Title>
        <SimpleGrid cols={{ base: 2, sm: 4 }} mb="sm">
          {(entity.media ?? []).map((m) => (
            <Image key={m.id} src={m.asset.url} alt={m.asset.alt ?? 'Product image'} h={120} fit="contain" radius="sm" />
          ))}
          {preview && <Image src={preview} alt="Uploading" h={120} fit="contain" opacity={0.5} />}
        </SimpleGrid>
        <Dropzone onDrop={onDrop} accept={IMAGE_MIME_TYPE} loading={uploadState.fetching} aria-label="Upload images">
          <Text ta="center" py="md">
            Drag images here or click to choose files
          </Text>
        </Dropzone>
        <ErrorNote error={uploadState.error} />
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Categories
        </Title>
        <Text size="sm" mb="xs">
          {(entity.categories ?? []).map((c) => c.name).join(', ') || 'None'}
        </Text>
        <Select
          label="Add to category"
          placeholder="Choose a category"
          data={(data?.catalogCategories?.data ?? []).map((c) => ({ value: c.id, label: c.name }))}
          onChange={(categoryId) => categoryId && addCategory({ id: entity.id, categoryId }).then(reload)}
          w={280}
        />
      </Card>
    </Stack>
  );
}

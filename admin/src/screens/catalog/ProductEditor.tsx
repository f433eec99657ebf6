// The product editor. New: type, slug, title → catalogEntityCreate (+ the title for the locale).
// Existing: status, attributes and custom fields per locale, brands, option types, the generated
// variants matrix and each variant's SKU, title and status (editor/Variants.tsx), option names and
// values renamed and reordered (editor/OptionTypes.tsx), prices per currency and
// customer group edited in place (editor/Prices.tsx), media by drag and drop with preview, categories.
// A 422 lands on the form field it names (api/errors.ts).
import { useState } from 'react';
import { Button, Card, Group, Image, Select, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import { Dropzone, IMAGE_MIME_TYPE } from '@mantine/dropzone';
import { notifications } from '@mantine/notifications';
import { useForm } from 'react-hook-form';
import { useNavigate, useParams } from 'react-router-dom';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { applyFieldIssues, errorMessage } from '../../api/errors';
import { ErrorNote } from '../../components/ErrorNote';
import type { CatalogEntityStatus } from '../../gql/graphql';
import { Brands } from './editor/Brands';
import { CustomFields } from './editor/CustomFields';
import { Prices } from './editor/Prices';
import { Variants } from './editor/Variants';

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
        title
        status
        options
      }
      brands {
        id
        name
      }
      customFields {
        fieldName
        locale
        value
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
const SetStatus = graphql(`
  mutation AdminEntityStatus($id: UUID!, $status: CatalogEntityStatus!) {
    catalogEntityUpdate(id: $id, status: $status) {
      id
      status
    }
  }
`);
const STATUSES: CatalogEntityStatus[] = ['draft', 'active', 'archived', 'discontinued'];

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
  const [uploadState, upload] = useMutation(UploadMedia);
  const [, attach] = useMutation(AttachMedia);
  const [, addCategory] = useMutation(AddCategory);
  const [, publish] = useMutation(Publish);
  const [statusState, setStatus] = useMutation(SetStatus);
  const [locale, setLocale] = useState('en');
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
        <Group align="end">
          <Select
            label="Status"
            data={STATUSES}
            value={entity.status}
            onChange={(status) => status && setStatus({ id: entity.id, status: status as CatalogEntityStatus }).then(reload)}
            allowDeselect={false}
            disabled={statusState.fetching}
            w={160}
          />
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
          Custom fields ({locale})
        </Title>
        <CustomFields entityId={entity.id} entityType={entity.type} locale={locale} stored={entity.customFields ?? []} onChanged={reload} />
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Brands
        </Title>
        <Brands entityId={entity.id} brands={entity.brands ?? []} onChanged={reload} />
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Options and variants
        </Title>
        <Variants
          entityId={entity.id}
          slug={entity.slug}
          optionTypes={entity.optionTypes ?? []}
          variants={entity.variants ?? []}
          prices={entity.pricing ?? []}
          onChanged={reload}
        />
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Prices
        </Title>
        <Prices entityId={entity.id} prices={entity.pricing ?? []} variants={entity.variants ?? []} onChanged={reload} />
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

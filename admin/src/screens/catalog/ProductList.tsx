// Catalog: the entity list (status/type filters, cursor paging) and full-text search (GET /search's
// field), plus the way into the product editor.
import { useState } from 'react';
import { Anchor, Badge, Button, Group, Select, TextInput, Title } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import type { CatalogEntityStatus } from '../../gql/graphql';
import { DataTable } from '../../components/DataTable';
import { ErrorNote } from '../../components/ErrorNote';
import { Pager, type Cursor } from '../../components/Pager';
import { dateTime } from '../../format';

const EntitiesQuery = graphql(`
  query AdminEntities($first: Int, $last: Int, $after: String, $before: String, $status: CatalogEntityStatus, $type: String) {
    catalogEntities(first: $first, last: $last, after: $after, before: $before, status: $status, type: $type) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      data {
        id
        slug
        type
        status
        title
        updatedAt
      }
    }
  }
`);

const SearchQuery = graphql(`
  query AdminSearch($q: String!) {
    search(q: $q, limit: 50) {
      data {
        id
        slug
        type
        status
        title
        updatedAt
      }
    }
  }
`);

const STATUSES: CatalogEntityStatus[] = ['draft', 'active', 'archived', 'discontinued'];

export default function ProductList() {
  const [status, setStatus] = useState<CatalogEntityStatus | null>(null);
  const [cursor, setCursor] = useState<Cursor>({});
  const [term, setTerm] = useState('');
  const [q, setQ] = useState('');
  const paging = cursor.before ? { last: 25, before: cursor.before } : { first: 25, after: cursor.after ?? undefined };
  const [list] = useQuery({ query: EntitiesQuery, variables: { ...paging, status }, pause: Boolean(q) });
  const [found] = useQuery({ query: SearchQuery, variables: { q }, pause: !q });
  const rows = q ? (found.data?.search?.data ?? []) : (list.data?.catalogEntities?.data ?? []);
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1} size="h2">
          Catalog
        </Title>
        <Button component={Link} to="/catalog/new">
          New product
        </Button>
      </Group>
      <Group mb="md" align="end">
        <search>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              setQ(term.trim());
            }}
          >
            <Group align="end" gap="xs">
              <TextInput label="Search" placeholder="Title, SKU, words…" value={term} onChange={(e) => setTerm(e.currentTarget.value)} />
              <Button type="submit" variant="default">
                Search
              </Button>
              {q && (
                <Button
                  variant="subtle"
                  onClick={() => {
                    setQ('');
                    setTerm('');
                  }}
                >
                  Clear
                </Button>
              )}
            </Group>
          </form>
        </search>
        {!q && (
          <Select
            label="Status"
            placeholder="Any status"
            clearable
            data={STATUSES}
            value={status}
            onChange={(value) => {
              setStatus(value as CatalogEntityStatus | null);
              setCursor({});
            }}
          />
        )}
      </Group>
      <ErrorNote error={q ? found.error : list.error} />
      <DataTable
        caption={q ? 'Search results' : 'Catalog entities'}
        rows={rows}
        rowKey={(e) => e.id}
        columns={[
          {
            key: 'title',
            title: 'Title',
            render: (e) => (
              <Anchor component={Link} to={`/catalog/${e.id}`}>
                {e.title ?? e.slug}
              </Anchor>
            ),
          },
          { key: 'slug', title: 'Slug', render: (e) => e.slug },
          { key: 'type', title: 'Type', render: (e) => e.type },
          { key: 'status', title: 'Status', render: (e) => <Badge variant="light">{e.status}</Badge> },
          { key: 'updated', title: 'Updated', render: (e) => dateTime(e.updatedAt) },
        ]}
      />
      {!q && <Pager pageInfo={list.data?.catalogEntities?.pageInfo} total={list.data?.catalogEntities?.totalCount} onPage={setCursor} />}
    </>
  );
}

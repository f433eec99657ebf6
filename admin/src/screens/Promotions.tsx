// Promotions: by status (active, scheduled, expired, inactive, all), with usage.
import { useState } from 'react';
import { Badge, Select } from '@mantine/core';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import type { PromotionListStatus } from '../gql/graphql';
import { ListScreen, pagingVariables } from '../components/ListScreen';
import type { Cursor } from '../components/Pager';
import { dateTime } from '../format';

const PromotionsQuery = graphql(`
  query AdminPromotions($first: Int, $last: Int, $after: String, $before: String, $status: PromotionListStatus) {
    promotions(first: $first, last: $last, after: $after, before: $before, status: $status) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      data {
        id
        code
        name
        type
        value
        isActive
        timesUsed
        usageLimit
        validFrom
        validUntil
      }
    }
  }
`);

export default function Promotions() {
  const [cursor, setCursor] = useState<Cursor>({});
  const [status, setStatus] = useState<PromotionListStatus>('all');
  const [{ data, error }] = useQuery({ query: PromotionsQuery, variables: { ...pagingVariables(cursor), status } });
  return (
    <ListScreen
      title="Promotions"
      page={data?.promotions}
      error={error}
      onPage={setCursor}
      rowKey={(p) => p.id}
      columns={[
        { key: 'code', title: 'Code', render: (p) => p.code },
        { key: 'name', title: 'Name', render: (p) => p.name },
        { key: 'type', title: 'Type', render: (p) => `${p.type} ${p.value}` },
        { key: 'active', title: 'Active', render: (p) => <Badge color={p.isActive ? 'green.9' : 'gray.7'}>{p.isActive ? 'yes' : 'no'}</Badge> },
        { key: 'used', title: 'Used', align: 'right', render: (p) => `${p.timesUsed}${p.usageLimit ? ` / ${p.usageLimit}` : ''}` },
        { key: 'window', title: 'Valid', render: (p) => `${dateTime(p.validFrom)} → ${p.validUntil ? dateTime(p.validUntil) : 'open'}` },
      ]}
    >
      <Select
        label="Status"
        data={['active', 'scheduled', 'expired', 'inactive', 'all']}
        value={status}
        onChange={(v) => {
          setStatus((v ?? 'all') as PromotionListStatus);
          setCursor({});
        }}
        allowDeselect={false}
        w={200}
        mb="md"
      />
    </ListScreen>
  );
}

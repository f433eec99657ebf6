// Customers: search by name or email, cursor paging; lifetime value and order count per row; the
// name links to the customer's detail page.
import { useState } from 'react';
import { Anchor, TextInput } from '@mantine/core';
import { Link } from 'react-router-dom';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import { ListScreen, pagingVariables } from '../../components/ListScreen';
import type { Cursor } from '../../components/Pager';
import { dateTime, money } from '../../format';

const CustomersQuery = graphql(`
  query AdminCustomers($first: Int, $last: Int, $after: String, $before: String, $search: String) {
    customers(first: $first, last: $last, after: $after, before: $before, search: $search) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      data {
        id
        name
        email
        ordersCount
        lifetimeValue
        lastOrderAt
        customerGroupIds
      }
    }
  }
`);

export default function Customers() {
  const [cursor, setCursor] = useState<Cursor>({});
  const [search, setSearch] = useState('');
  const [{ data, error }] = useQuery({ query: CustomersQuery, variables: { ...pagingVariables(cursor), search: search || undefined } });
  return (
    <ListScreen
      title="Customers"
      page={data?.customers}
      error={error}
      onPage={setCursor}
      rowKey={(c) => c.id}
      columns={[
        {
          key: 'name',
          title: 'Name',
          render: (c) => (
            <Anchor component={Link} to={`/customers/${c.id}`}>
              {c.name || c.email}
            </Anchor>
          ),
        },
        { key: 'email', title: 'Email', render: (c) => c.email },
        { key: 'orders', title: 'Orders', align: 'right', render: (c) => c.ordersCount },
        { key: 'ltv', title: 'Lifetime value', align: 'right', render: (c) => money(c.lifetimeValue) },
        { key: 'last', title: 'Last order', render: (c) => dateTime(c.lastOrderAt) },
        { key: 'groups', title: 'Groups', render: (c) => c.customerGroupIds.join(', ') || '—' },
      ]}
    >
      <TextInput
        label="Search"
        placeholder="Name or email"
        mb="md"
        w={300}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setCursor({});
        }}
      />
    </ListScreen>
  );
}

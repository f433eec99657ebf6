// Orders: status filter, page size, cursor paging, and a jump to an order by its number.
import { useState } from 'react';
import { Anchor, Badge, Button, Group, Select, TextInput, Title } from '@mantine/core';
import { Link, useNavigate } from 'react-router-dom';
import { useQuery } from 'urql';
import { graphql } from '../../gql';
import type { OrderStatus } from '../../gql/graphql';
import { DataTable } from '../../components/DataTable';
import { ErrorNote } from '../../components/ErrorNote';
import { Pager, type Cursor } from '../../components/Pager';
import { dateTime, money } from '../../format';

const OrdersQuery = graphql(`
  query AdminOrders($first: Int, $last: Int, $after: String, $before: String, $status: OrderStatus) {
    orders(first: $first, last: $last, after: $after, before: $before, status: $status) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      data {
        id
        orderNumber
        status
        paymentStatus
        customerEmail
        grandTotal
        currency
        placedAt
      }
    }
  }
`);

const STATUSES: OrderStatus[] = ['pending', 'confirmed', 'processing', 'partially_fulfilled', 'fulfilled', 'ready_for_pickup', 'picked_up', 'refunded', 'cancelled'];

export default function OrderList() {
  const navigate = useNavigate();
  const [status, setStatus] = useState<OrderStatus | null>(null);
  const [size, setSize] = useState(25);
  const [cursor, setCursor] = useState<Cursor>({});
  const [number, setNumber] = useState('');
  const paging = cursor.before ? { last: size, before: cursor.before } : { first: size, after: cursor.after ?? undefined };
  const [{ data, error }] = useQuery({ query: OrdersQuery, variables: { ...paging, status } });
  const page = data?.orders;
  return (
    <>
      <Title order={1} size="h2" mb="md">
        Orders
      </Title>
      <Group mb="md" align="end">
        <Select
          label="Status"
          placeholder="Any status"
          clearable
          data={STATUSES}
          value={status}
          onChange={(value) => {
            setStatus(value as OrderStatus | null);
            setCursor({});
          }}
        />
        <Select label="Rows" data={['25', '50', '100']} value={String(size)} onChange={(v) => setSize(Number(v ?? 25))} w={90} />
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (number.trim()) void navigate(`/orders/${encodeURIComponent(number.trim())}`);
          }}
        >
          <Group align="end" gap="xs">
            <TextInput label="Order number" placeholder="e.g. 1001" value={number} onChange={(e) => setNumber(e.currentTarget.value)} />
            <Button type="submit" variant="default">
              Open
            </Button>
          </Group>
        </form>
      </Group>
      <ErrorNote error={error} />
      <DataTable
        caption="Orders"
        rows={page?.data ?? []}
        rowKey={(o) => o.id}
        columns={[
          {
            key: 'number',
            title: 'Order',
            render: (o) => (
              <Anchor component={Link} to={`/orders/${o.id}`}>
                {o.orderNumber}
              </Anchor>
            ),
          },
          { key: 'placed', title: 'Placed', render: (o) => dateTime(o.placedAt) },
          { key: 'customer', title: 'Customer', render: (o) => o.customerEmail ?? '—' },
          { key: 'status', title: 'Status', render: (o) => <Badge variant="light">{o.status}</Badge> },
          {
            key: 'payment',
            title: 'Payment',
            render: (o) => (
              <Badge variant="outline" color="gray">
                {o.paymentStatus}
              </Badge>
            ),
          },
          { key: 'total', title: 'Total', align: 'right', render: (o) => money(o.grandTotal, o.currency) },
        ]}
      />
      <Pager pageInfo={page?.pageInfo} total={page?.totalCount} onPage={setCursor} />
    </>
  );
}

// Orders: filters (status, payment status, a created-at window, search by number or customer
// email), page size and cursor paging. The filters and the page size live in the URL
// (?status=&payment=&from=&to=&q=&rows=), so a filtered list can be linked and reloaded.
import { memo, useRef, useState } from 'react';
import { Anchor, Badge, Button, Card, Group, Select, TextInput, Title } from '@mantine/core';
import { Link, useSearchParams } from 'react-router-dom';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { OrdersQuery, SIZES, ordersVariables, pageSize } from './ordersQuery';
import type { AdminOrdersQuery, OrderStatus, PaymentStatus } from '../../gql/graphql';
import { DataTable, type Column } from '../../components/DataTable';
import { ErrorNote } from '../../components/ErrorNote';
import { JobProgress } from '../../components/JobProgress';
import { Pager } from '../../components/Pager';
import type { Cursor } from '../../components/Pager';
import { dateTime, money } from '../../format';
import { prefetchedPolicy } from '../../prefetch';

// Every order as CSV: a background job (bulk module); its progress shows under the filters.
const ExportOrders = graphql(`
  mutation AdminOrderExport {
    orderExport {
      id
    }
  }
`);

type OrderRow = NonNullable<AdminOrdersQuery['orders']>['data'][number];

const STATUSES: OrderStatus[] = ['pending', 'confirmed', 'processing', 'partially_fulfilled', 'fulfilled', 'ready_for_pickup', 'picked_up', 'refunded', 'cancelled'];
const PAYMENT_STATUSES: PaymentStatus[] = ['awaiting_payment', 'authorized', 'partially_paid', 'paid', 'partially_refunded', 'refunded', 'voided'];

// Columns are module constants: the table re-renders its rows only when the page changes.
const COLUMNS: Column<OrderRow>[] = [
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
];

const OrdersTable = memo(function OrdersTable({ rows }: { rows: readonly OrderRow[] }) {
  return <DataTable caption="Orders" rows={rows} rowKey={(o) => o.id} columns={COLUMNS} />;
});

export default function OrderList() {
  const [params, setParams] = useSearchParams();
  const [cursor, setCursor] = useState<Cursor>({});
  const status = (params.get('status') as OrderStatus | null) ?? null;
  const paymentStatus = (params.get('payment') as PaymentStatus | null) ?? null;
  const from = params.get('from');
  const to = params.get('to');
  const search = params.get('q') ?? '';
  const size = pageSize(params);
  const [draft, setDraft] = useState(search);
  const [exporting, startExport] = useMutation(ExportOrders);
  const [exportJob, setExportJob] = useState<string | null>(null);

  /** Sets (or clears) URL parameters and goes back to the first page. */
  function update(values: Record<string, string | null>) {
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        for (const [key, value] of Object.entries(values)) {
          if (value) next.set(key, value);
          else next.delete(key);
        }
        return next;
      },
      { replace: true },
    );
    setCursor({});
  }

  const variables = ordersVariables(params, cursor);
  // The page load's prefetch answered (or is answering) these variables: the first query reads
  // them from the cache instead of asking again. Later variables (and a return to the first ones) ask as usual.
  const [firstPolicy] = useState(() => prefetchedPolicy(variables));
  const firstVariables = useRef(JSON.stringify(variables));
  const movedOn = useRef(false);
  if (!movedOn.current && JSON.stringify(variables) !== firstVariables.current) movedOn.current = true;
  const [{ data, error }] = useQuery({ query: OrdersQuery, variables, requestPolicy: movedOn.current ? undefined : firstPolicy });
  const page = data?.orders;
  const filtered = Boolean(status || paymentStatus || from || to || search);
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1} size="h2">
          Orders
        </Title>
        <Button
          variant="default"
          loading={exporting.fetching}
          onClick={async () => {
            const result = await startExport({});
            if (result.data?.orderExport) setExportJob(result.data.orderExport.id);
          }}
        >
          Export CSV
        </Button>
      </Group>
      <ErrorNote error={exporting.error} />
      {exportJob && (
        <Card withBorder mb="md" p="sm">
          <JobProgress jobId={exportJob} label="Orders export" />
        </Card>
      )}
      <form
        aria-label="Order filters"
        onSubmit={(event) => {
          event.preventDefault();
          update({ q: draft.trim() || null });
        }}
      >
        <Group mb="md" align="end">
          <TextInput
            label="Search"
            placeholder="Order number or customer email"
            value={draft}
            onChange={(e) => setDraft(e.currentTarget.value)}
            onBlur={() => draft.trim() !== search && update({ q: draft.trim() || null })}
            w={260}
          />
          <Select label="Status" placeholder="Any status" clearable data={STATUSES} value={status} onChange={(value) => update({ status: value })} w={190} />
          <Select label="Payment" placeholder="Any payment" clearable data={PAYMENT_STATUSES} value={paymentStatus} onChange={(value) => update({ payment: value })} w={190} />
          <TextInput label="Created from" type="date" value={from ?? ''} onChange={(e) => update({ from: e.currentTarget.value || null })} w={160} />
          <TextInput label="Created to" type="date" value={to ?? ''} onChange={(e) => update({ to: e.currentTarget.value || null })} w={160} />
          <Select label="Rows" data={SIZES} value={String(size)} onChange={(v) => update({ rows: v && v !== '25' ? v : null })} allowDeselect={false} w={90} />
          <Button type="submit" variant="default">
            Search
          </Button>
          {filtered && (
            <Button
              variant="subtle"
              onClick={() => {
                setDraft('');
                update({ status: null, payment: null, from: null, to: null, q: null });
              }}
            >
              Clear filters
            </Button>
          )}
        </Group>
      </form>
      <ErrorNote error={error} />
      <OrdersTable rows={page?.data ?? []} />
      <Pager pageInfo={page?.pageInfo} total={page?.totalCount} onPage={setCursor} />
    </>
  );
}

// Webhooks: subscriptions, the delivery log (status filter) and redelivery of a delivery.
import { useState } from 'react';
import { Badge, Button, Select, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { WebhookDeliveryStatus } from '../gql/graphql';
import { errorMessage } from '../api/errors';
import { DataTable } from '../components/DataTable';
import { ListScreen, pagingVariables } from '../components/ListScreen';
import type { Cursor } from '../components/Pager';
import { dateTime } from '../format';

const WebhooksQuery = graphql(`
  query AdminWebhooks($first: Int, $last: Int, $after: String, $before: String, $status: WebhookDeliveryStatus) {
    webhookEndpoints(first: 50) {
      data {
        id
        url
        events
        description
        createdAt
      }
    }
    webhookDeliveries(first: $first, last: $last, after: $after, before: $before, status: $status) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      data {
        id
        eventType
        status
        attempts
        lastStatusCode
        lastError
        createdAt
      }
    }
  }
`);

const Redeliver = graphql(`
  mutation AdminRedeliver($id: UUID!) {
    webhookDeliveryRedeliver(id: $id) {
      id
      status
    }
  }
`);

const COLOR: Record<string, string> = { succeeded: 'green.9', failed: 'red.9', pending: 'gray.7' };

export default function Webhooks() {
  const [cursor, setCursor] = useState<Cursor>({});
  const [status, setStatus] = useState<WebhookDeliveryStatus | null>(null);
  const [{ data, error }, refetch] = useQuery({ query: WebhooksQuery, variables: { ...pagingVariables(cursor), status } });
  const [, redeliver] = useMutation(Redeliver);
  async function onRedeliver(id: string) {
    const result = await redeliver({ id });
    notifications.show(result.error ? { color: 'red', message: errorMessage(result.error) } : { message: 'Redelivery queued' });
    refetch({ requestPolicy: 'network-only' });
  }
  return (
    <ListScreen
      title="Webhooks"
      page={data?.webhookDeliveries}
      error={error}
      onPage={setCursor}
      rowKey={(d) => d.id}
      columns={[
        { key: 'at', title: 'Created', render: (d) => dateTime(d.createdAt) },
        { key: 'event', title: 'Event', render: (d) => d.eventType },
        { key: 'status', title: 'Status', render: (d) => <Badge color={COLOR[d.status]}>{d.status}</Badge> },
        { key: 'attempts', title: 'Attempts', align: 'right', render: (d) => d.attempts },
        { key: 'code', title: 'Last answer', render: (d) => d.lastStatusCode ?? d.lastError ?? '—' },
        {
          key: 'redeliver',
          title: 'Redeliver',
          render: (d) => (
            <Button size="xs" variant="default" onClick={() => onRedeliver(d.id)}>
              Redeliver
            </Button>
          ),
        },
      ]}
    >
      <Title order={2} size="h4" mb="sm">
        Subscriptions
      </Title>
      <DataTable
        caption="Webhook subscriptions"
        rows={data?.webhookEndpoints?.data ?? []}
        rowKey={(e) => e.id}
        columns={[
          { key: 'url', title: 'URL', render: (e) => e.url },
          { key: 'events', title: 'Events', render: (e) => e.events.join(', ') },
          { key: 'description', title: 'Description', render: (e) => e.description ?? '' },
        ]}
      />
      <Title order={2} size="h4" mt="lg" mb="sm">
        Deliveries
      </Title>
      <Select
        label="Delivery status"
        placeholder="Any"
        clearable
        data={['pending', 'succeeded', 'failed']}
        value={status}
        onChange={(v) => setStatus(v as WebhookDeliveryStatus | null)}
        w={200}
        mb="md"
      />
    </ListScreen>
  );
}

// One order: lines, payments, timeline and notes; fulfil lines with tracking; refund lines; the
// invoice PDF (GET /api/orders/:id/invoice.pdf, same cookie session).
import { useState } from 'react';
import { Anchor, Badge, Button, Card, Grid, Group, NumberInput, Stack, Table, Text, TextInput, Textarea, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useParams } from 'react-router-dom';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { ErrorNote } from '../../components/ErrorNote';
import { errorMessage } from '../../api/errors';
import { dateTime, money } from '../../format';
import { useSession } from '../../session';

const OrderQuery = graphql(`
  query AdminOrder($id: String!) {
    order(idOrNumber: $id) {
      id
      orderNumber
      status
      paymentStatus
      currency
      customerEmail
      placedAt
      subtotal
      taxTotal
      shippingTotal
      discountTotal
      grandTotal
      refundedAmount
      lineItems {
        lineItemId
        title
        sku
        quantity
        unitPrice
        totalPrice
        fulfilledQuantity
        refundedQuantity
      }
      payments {
        provider
        status
        amount
        capturedAmount
        refundedAmount
        currency
      }
      fulfillments {
        id
        carrier
        trackingNumber
        createdAt
      }
      refunds {
        id
        amount
        status
        reason
        createdAt
      }
      timeline {
        at
        type
        summary
      }
      notes {
        id
        body
        createdAt
      }
    }
  }
`);

const FulfilMutation = graphql(`
  mutation AdminFulfil($id: String!, $lines: [OrderLineQuantityInput!], $carrier: String, $trackingNumber: String) {
    orderFulfillmentCreate(id: $id, lines: $lines, carrier: $carrier, trackingNumber: $trackingNumber) {
      id
    }
  }
`);

const RefundMutation = graphql(`
  mutation AdminRefund($id: String!, $lines: [OrderLineQuantityInput!]!, $reason: String) {
    orderRefundCreate(id: $id, lines: $lines, reason: $reason) {
      id
      amount
    }
  }
`);

const StatusMutation = graphql(`
  mutation AdminOrderStatus($id: String!, $status: OrderStatus!) {
    orderStatusUpdate(id: $id, status: $status) {
      id
      status
    }
  }
`);

const NoteMutation = graphql(`
  mutation AdminNote($id: String!, $body: String!) {
    orderNoteCreate(id: $id, body: $body) {
      id
    }
  }
`);

export default function OrderDetail() {
  const { id = '' } = useParams();
  const session = useSession();
  const [{ data, error }, refetch] = useQuery({ query: OrderQuery, variables: { id } });
  const [fulfilState, fulfil] = useMutation(FulfilMutation);
  const [refundState, refund] = useMutation(RefundMutation);
  const [, addNote] = useMutation(NoteMutation);
  const [statusState, setStatus] = useMutation(StatusMutation);
  const [selected, setSelected] = useState<Record<string, number>>({});
  const [carrier, setCarrier] = useState('');
  const [tracking, setTracking] = useState('');
  const [reason, setReason] = useState('');
  const [note, setNote] = useState('');
  const order = data?.order;
  if (error) return <ErrorNote error={error} />;
  if (!order) return <Text>Loading…</Text>;
  const lines = Object.entries(selected)
    .filter(([, q]) => q > 0)
    .map(([lineItemId, quantity]) => ({ lineItemId, quantity }));
  const reload = () => refetch({ requestPolicy: 'network-only' });
  const mayUpdate = session.can('orders:update');

  async function onFulfil() {
    const result = await fulfil({ id: order!.id, lines: lines.length ? lines : undefined, carrier: carrier || undefined, trackingNumber: tracking || undefined });
    if (result.error) return;
    notifications.show({ message: 'Fulfilment recorded' });
    setSelected({});
    reload();
  }
  async function onRefund() {
    const result = await refund({ id: order!.id, lines, reason: reason || undefined });
    if (result.error) return;
    notifications.show({ message: `Refund of ${money(result.data?.orderRefundCreate?.amount, order!.currency)} issued` });
    setSelected({});
    reload();
  }
  async function onNote() {
    if (!note.trim()) return;
    const result = await addNote({ id: order!.id, body: note.trim() });
    if (result.error) notifications.show({ color: 'red', message: errorMessage(result.error) });
    else {
      setNote('');
      reload();
    }
  }

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1} size="h2">
          Order {order.orderNumber}
        </Title>
        <Group>
          <Badge>{order.status}</Badge>
          <Badge variant="outline" color="gray">
            payment {order.paymentStatus}
          </Badge>
          {mayUpdate && order.status === 'confirmed' && (
            <Button size="xs" variant="default" loading={statusState.fetching} onClick={() => setStatus({ id: order.id, status: 'processing' }).then(reload)}>
              Start processing
            </Button>
          )}
          <Anchor href={`/api/orders/${order.id}/invoice.pdf`} target="_blank" rel="noreferrer">
            Invoice PDF
          </Anchor>
        </Group>
      </Group>
      <ErrorNote error={statusState.error} />
      <Text size="sm">
        {order.customerEmail ?? 'No email'} · placed {dateTime(order.placedAt)}
      </Text>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Lines
        </Title>
        <Table aria-label="Order lines">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Select quantity</Table.Th>
              <Table.Th>Item</Table.Th>
              <Table.Th>SKU</Table.Th>
              <Table.Th>Qty</Table.Th>
              <Table.Th>Fulfilled</Table.Th>
              <Table.Th>Refunded</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>Total</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {order.lineItems.map((line) => (
              <Table.Tr key={line.lineItemId}>
                <Table.Td>
                  <NumberInput
                    aria-label={`Quantity of ${line.title}`}
                    min={0}
                    max={line.quantity}
                    w={80}
                    size="xs"
                    value={selected[line.lineItemId] ?? 0}
                    onChange={(v) => setSelected((s) => ({ ...s, [line.lineItemId]: Number(v) || 0 }))}
                  />
                </Table.Td>
                <Table.Td>{line.title}</Table.Td>
                <Table.Td>{line.sku}</Table.Td>
                <Table.Td>{line.quantity}</Table.Td>
                <Table.Td>{line.fulfilledQuantity}</Table.Td>
                <Table.Td>{line.refundedQuantity}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{money(line.totalPrice, order.currency)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text ta="right" mt="sm" fw={600}>
          Total {money(order.grandTotal, order.currency)} · refunded {money(order.refundedAmount, order.currency)}
        </Text>
      </Card>
      {mayUpdate && (
        <Grid>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                Fulfil
              </Title>
              <Text size="sm" c="dimmed" mb="xs">
                The selected quantities, or every open line when none is selected.
              </Text>
              <Group align="end">
                <TextInput label="Carrier" value={carrier} onChange={(e) => setCarrier(e.currentTarget.value)} />
                <TextInput label="Tracking number" value={tracking} onChange={(e) => setTracking(e.currentTarget.value)} />
                <Button onClick={onFulfil} loading={fulfilState.fetching}>
                  Fulfil
                </Button>
              </Group>
              <ErrorNote error={fulfilState.error} />
            </Card>
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <Card withBorder>
              <Title order={2} size="h4" mb="sm">
                Refund
              </Title>
              <Text size="sm" c="dimmed" mb="xs">
                Refunds the selected quantities.
              </Text>
              <Group align="end">
                <TextInput label="Reason" value={reason} onChange={(e) => setReason(e.currentTarget.value)} />
                <Button color="red" onClick={onRefund} loading={refundState.fetching} disabled={!lines.length}>
                  Refund selected
                </Button>
              </Group>
              <ErrorNote error={refundState.error} />
            </Card>
          </Grid.Col>
        </Grid>
      )}
      <Grid>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              Payments
            </Title>
            {(order.payments ?? []).map((p) => (
              <Text key={`${p.provider}|${p.status}|${p.amount}|${p.capturedAmount}|${p.refundedAmount}|${p.currency}`} size="sm">
                {p.provider}: {p.status} · {money(p.amount, p.currency)} captured {money(p.capturedAmount, p.currency)} refunded {money(p.refundedAmount, p.currency)}
              </Text>
            ))}
            {!order.payments?.length && <Text size="sm">No payments.</Text>}
            <Title order={3} size="h5" mt="md">
              Fulfilments
            </Title>
            {order.fulfillments.map((f) => (
              <Text key={f.id} size="sm">
                {dateTime(f.createdAt)} · {f.carrier ?? 'no carrier'} {f.trackingNumber ?? ''}
              </Text>
            ))}
            <Title order={3} size="h5" mt="md">
              Refunds
            </Title>
            {(order.refunds ?? []).map((r) => (
              <Text key={r.id} size="sm">
                {dateTime(r.createdAt)} · {money(r.amount, order.currency)} {r.status} {r.reason ?? ''}
              </Text>
            ))}
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 6 }}>
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              Timeline
            </Title>
            <Stack gap={4}>
              {(order.timeline ?? []).map((entry) => (
                <Text key={`${entry.at}|${entry.type}|${entry.summary}`} size="sm">
                  {dateTime(entry.at)} — {entry.summary}
                </Text>
              ))}
            </Stack>
            <Title order={3} size="h5" mt="md">
              Notes
            </Title>
            {(order.notes ?? []).map((n) => (
              <Text key={n.id} size="sm">
                {dateTime(n.createdAt)}: {n.body}
              </Text>
            ))}
            {mayUpdate && (
              <Group align="end" mt="xs">
                <Textarea label="New note" value={note} onChange={(e) => setNote(e.currentTarget.value)} autosize style={{ flex: 1 }} />
                <Button variant="default" onClick={onNote}>
                  Add note
                </Button>
              </Group>
            )}
          </Card>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

// Inventory: levels per warehouse (low-stock filter), an adjustment with its reason, movements.
import { useState } from 'react';
import { Badge, Button, Card, Checkbox, Group, NumberInput, Select, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import type { InventoryAdjustmentType } from '../gql/graphql';
import { DataTable } from '../components/DataTable';
import { ErrorNote } from '../components/ErrorNote';
import { ListScreen, pagingVariables } from '../components/ListScreen';
import type { Cursor } from '../components/Pager';
import { dateTime } from '../format';
import { useSession } from '../session';

const LevelsQuery = graphql(`
  query AdminInventory($first: Int, $last: Int, $after: String, $before: String, $lowStock: Boolean) {
    inventoryLevels(first: $first, last: $last, after: $after, before: $before, lowStock: $lowStock) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      data {
        id
        entityId
        variantId
        warehouseId
        onHand
        reserved
        available
        reorderThreshold
        lowStock
      }
    }
    inventoryMovements(first: 20) {
      data {
        id
        createdAt
        type
        quantity
        onHandAfter
        note
        entityId
      }
    }
  }
`);

const AdjustMutation = graphql(`
  mutation AdminInventoryAdjust($entityId: UUID!, $variantId: UUID, $warehouseId: UUID, $type: InventoryAdjustmentType!, $quantity: Int!, $note: String) {
    inventoryAdjust(entityId: $entityId, variantId: $variantId, warehouseId: $warehouseId, type: $type, quantity: $quantity, note: $note) {
      __typename
    }
  }
`);

const TYPES: InventoryAdjustmentType[] = ['restock', 'correction', 'damage', 'loss', 'return'];

export default function Inventory() {
  const session = useSession();
  const [cursor, setCursor] = useState<Cursor>({});
  const [lowStock, setLowStock] = useState(false);
  const [{ data, error }, refetch] = useQuery({ query: LevelsQuery, variables: { ...pagingVariables(cursor), lowStock: lowStock || undefined } });
  const [adjustState, adjust] = useMutation(AdjustMutation);
  const [target, setTarget] = useState<{ entityId: string; variantId?: string | null; warehouseId: string } | null>(null);
  const [type, setType] = useState<InventoryAdjustmentType>('restock');
  const [quantity, setQuantity] = useState<number>(1);
  const [note, setNote] = useState('');
  async function submit() {
    if (!target) return;
    const result = await adjust({ ...target, type, quantity, note: note || undefined });
    if (!result.error) {
      notifications.show({ message: 'Stock adjusted' });
      setTarget(null);
      refetch({ requestPolicy: 'network-only' });
    }
  }
  return (
    <ListScreen
      title="Inventory"
      page={data?.inventoryLevels}
      error={error}
      onPage={setCursor}
      rowKey={(l) => l.id}
      columns={[
        { key: 'entity', title: 'Entity / variant', render: (l) => `${l.entityId.slice(0, 8)}${l.variantId ? ` / ${l.variantId.slice(0, 8)}` : ''}` },
        { key: 'warehouse', title: 'Warehouse', render: (l) => l.warehouseId.slice(0, 8) },
        { key: 'onHand', title: 'On hand', align: 'right', render: (l) => l.onHand },
        { key: 'reserved', title: 'Reserved', align: 'right', render: (l) => l.reserved },
        { key: 'available', title: 'Available', align: 'right', render: (l) => (l.lowStock ? <Badge color="red.8">{l.available}</Badge> : l.available) },
        {
          key: 'adjust',
          title: 'Adjust',
          render: (l) =>
            session.can('inventory:adjust') ? (
              <Button size="xs" variant="default" onClick={() => setTarget({ entityId: l.entityId, variantId: l.variantId, warehouseId: l.warehouseId })}>
                Adjust
              </Button>
            ) : null,
        },
      ]}
    >
      <Checkbox label="Low stock only" checked={lowStock} onChange={(e) => setLowStock(e.currentTarget.checked)} mb="md" />
      {target && (
        <Card withBorder mb="md">
          <Title order={2} size="h4" mb="sm">
            Adjust stock
          </Title>
          <Group align="end">
            <Select label="Reason" data={TYPES} value={type} onChange={(v) => setType((v ?? 'restock') as InventoryAdjustmentType)} allowDeselect={false} />
            <NumberInput label="Quantity" value={quantity} onChange={(v) => setQuantity(Number(v) || 0)} w={120} />
            <TextInput label="Note" value={note} onChange={(e) => setNote(e.currentTarget.value)} />
            <Button onClick={submit} loading={adjustState.fetching}>
              Save
            </Button>
            <Button variant="subtle" onClick={() => setTarget(null)}>
              Cancel
            </Button>
          </Group>
          <ErrorNote error={adjustState.error} />
        </Card>
      )}
      <Title order={2} size="h4" my="sm">
        Recent movements
      </Title>
      <DataTable
        caption="Recent movements"
        rows={data?.inventoryMovements?.data ?? []}
        rowKey={(m) => m.id}
        columns={[
          { key: 'at', title: 'When', render: (m) => dateTime(m.createdAt) },
          { key: 'type', title: 'Type', render: (m) => m.type },
          { key: 'qty', title: 'Quantity', align: 'right', render: (m) => m.quantity },
          { key: 'after', title: 'On hand after', align: 'right', render: (m) => m.onHandAfter },
          { key: 'note', title: 'Note', render: (m) => m.note ?? '' },
        ]}
      />
      <Title order={2} size="h4" mt="lg" mb="sm">
        Levels
      </Title>
    </ListScreen>
  );
}

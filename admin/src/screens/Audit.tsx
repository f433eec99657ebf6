// Audit log: every privileged write, newest first, filterable by entity type and event.
import { useState } from 'react';
import { Group, TextInput } from '@mantine/core';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { ListScreen, pagingVariables } from '../components/ListScreen';
import type { Cursor } from '../components/Pager';
import { dateTime } from '../format';

const AuditQuery = graphql(`
  query AdminAudit($first: Int, $last: Int, $after: String, $before: String, $entityType: String, $event: String) {
    auditEntries(first: $first, last: $last, after: $after, before: $before, entityType: $entityType, event: $event) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      data {
        id
        createdAt
        event
        entityType
        entityId
        actorType
        actorId
      }
    }
  }
`);

export default function Audit() {
  const [cursor, setCursor] = useState<Cursor>({});
  const [entityType, setEntityType] = useState('');
  const [event, setEvent] = useState('');
  const [{ data, error }] = useQuery({ query: AuditQuery, variables: { ...pagingVariables(cursor), entityType: entityType || undefined, event: event || undefined } });
  return (
    <ListScreen
      title="Audit log"
      page={data?.auditEntries}
      error={error}
      onPage={setCursor}
      rowKey={(a) => a.id}
      columns={[
        { key: 'at', title: 'When', render: (a) => dateTime(a.createdAt) },
        { key: 'event', title: 'Event', render: (a) => a.event },
        { key: 'entity', title: 'Entity', render: (a) => `${a.entityType} ${a.entityId ?? ''}` },
        { key: 'actor', title: 'Actor', render: (a) => `${a.actorType} ${a.actorId ?? ''}` },
      ]}
    >
      <Group mb="md">
        <TextInput label="Entity type" placeholder="e.g. order" value={entityType} onChange={(e) => setEntityType(e.currentTarget.value)} />
        <TextInput label="Event" placeholder="e.g. orders.refundCreate" value={event} onChange={(e) => setEvent(e.currentTarget.value)} />
      </Group>
    </ListScreen>
  );
}

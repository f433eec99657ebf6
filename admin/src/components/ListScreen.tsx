// The frame most list screens share: a title, an error note, the table and the pager.
import type { ReactNode } from 'react';
import { Group, Title } from '@mantine/core';
import type { CombinedError } from 'urql';
import { DataTable, type Column } from './DataTable';
import { ErrorNote } from './ErrorNote';
import { Pager, type Cursor } from './Pager';

interface Page<Row> {
  data: readonly Row[];
  totalCount?: number;
  pageInfo?: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor?: string | null; endCursor?: string | null };
}

export function pagingVariables(cursor: Cursor, size = 25) {
  return cursor.before ? { last: size, before: cursor.before } : { first: size, after: cursor.after ?? undefined };
}

export function ListScreen<Row>(props: {
  title: string;
  page?: Page<Row> | null;
  error?: CombinedError;
  columns: Column<Row>[];
  rowKey(row: Row): string;
  onPage?(cursor: Cursor): void;
  actions?: ReactNode;
  children?: ReactNode;
}) {
  return (
    <>
      <Group justify="space-between" mb="md">
        <Title order={1} size="h2">
          {props.title}
        </Title>
        {props.actions}
      </Group>
      {props.children}
      <ErrorNote error={props.error} />
      <DataTable caption={props.title} rows={props.page?.data ?? []} columns={props.columns} rowKey={props.rowKey} />
      {props.onPage && <Pager pageInfo={props.page?.pageInfo} total={props.page?.totalCount} onPage={props.onPage} />}
    </>
  );
}

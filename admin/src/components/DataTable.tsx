// A plain, keyboard-usable table for lists: columns render cells; rows may link to a detail.
import type { ReactNode } from 'react';
import { Table, Text } from '@mantine/core';

export interface Column<Row> {
  key: string;
  title: string;
  render(row: Row): ReactNode;
  align?: 'left' | 'right';
}

export function DataTable<Row>({ rows, columns, caption, rowKey }: { rows: readonly Row[]; columns: Column<Row>[]; caption: string; rowKey(row: Row): string }) {
  return (
    <Table.ScrollContainer minWidth={600}>
      <Table striped highlightOnHover aria-label={caption}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key} style={{ textAlign: c.align ?? 'left' }}>
                {c.title}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={rowKey(row)}>
              {columns.map((c) => (
                <Table.Td key={c.key} style={{ textAlign: c.align ?? 'left' }}>
                  {c.render(row)}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
          {rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text c="dimmed" size="sm">
                  Nothing here yet.
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

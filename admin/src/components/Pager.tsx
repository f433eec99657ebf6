// Cursor paging: the server's pageInfo decides whether there is a next/previous page; the screen
// keeps the cursor in its state and passes it as `after` / `before`.
import { Button, Group, Text } from '@mantine/core';

export interface Cursor {
  after?: string | null;
  before?: string | null;
}

interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor?: string | null;
  endCursor?: string | null;
}

export function Pager({ pageInfo, total, onPage }: { pageInfo?: PageInfo; total?: number; onPage(cursor: Cursor): void }) {
  if (!pageInfo) return null;
  return (
    <Group justify="space-between" mt="sm">
      <Text size="sm" c="dimmed">
        {total !== undefined ? `${total} in all` : ''}
      </Text>
      <Group gap="xs">
        <Button size="xs" variant="default" disabled={!pageInfo.hasPreviousPage} onClick={() => onPage({ before: pageInfo.startCursor })}>
          Previous
        </Button>
        <Button size="xs" variant="default" disabled={!pageInfo.hasNextPage} onClick={() => onPage({ after: pageInfo.endCursor })}>
          Next
        </Button>
      </Group>
    </Group>
  );
}

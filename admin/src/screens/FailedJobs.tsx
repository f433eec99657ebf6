// Failed jobs: what failed, why, and a retry.
import { useState } from 'react';
import { Button, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../gql';
import { errorMessage } from '../api/errors';
import { ListScreen, pagingVariables } from '../components/ListScreen';
import type { Cursor } from '../components/Pager';
import { dateTime } from '../format';

const FailedJobsQuery = graphql(`
  query AdminFailedJobs($first: Int, $last: Int, $after: String, $before: String) {
    failedJobs(first: $first, last: $last, after: $after, before: $before) {
      totalCount
      pageInfo {
        hasNextPage
        hasPreviousPage
        startCursor
        endCursor
      }
      data {
        id
        taskSlug
        attempts
        maxAttempts
        error
        updatedAt
      }
    }
  }
`);

const Retry = graphql(`
  mutation AdminJobRetry($id: UUID!) {
    jobRetry(id: $id) {
      id
      status
    }
  }
`);

export default function FailedJobs() {
  const [cursor, setCursor] = useState<Cursor>({});
  const [{ data, error }, refetch] = useQuery({ query: FailedJobsQuery, variables: pagingVariables(cursor) });
  const [, retry] = useMutation(Retry);
  async function onRetry(id: string) {
    const result = await retry({ id });
    notifications.show(result.error ? { color: 'red', message: errorMessage(result.error) } : { message: 'Job queued again' });
    refetch({ requestPolicy: 'network-only' });
  }
  return (
    <ListScreen
      title="Failed jobs"
      page={data?.failedJobs}
      error={error}
      onPage={setCursor}
      rowKey={(j) => j.id}
      columns={[
        { key: 'task', title: 'Task', render: (j) => j.taskSlug },
        { key: 'attempts', title: 'Attempts', align: 'right', render: (j) => `${j.attempts} / ${j.maxAttempts}` },
        {
          key: 'error',
          title: 'Error',
          render: (j) => (
            <Text size="sm" lineClamp={2}>
              {j.error ?? ''}
            </Text>
          ),
        },
        { key: 'at', title: 'Failed', render: (j) => dateTime(j.updatedAt) },
        {
          key: 'retry',
          title: 'Retry',
          render: (j) => (
            <Button size="xs" variant="default" onClick={() => onRetry(j.id)}>
              Retry
            </Button>
          ),
        },
      ]}
    />
  );
}

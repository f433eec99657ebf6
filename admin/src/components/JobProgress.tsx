// Progress of a background job (bulk import or export): polls `job(id)` each second until it
// ends, showing rowsDone of rowsTotal when the job reports them (imports) and an animated bar
// while it cannot (an export counts its rows at the end); then the outcome and the file link.
import { useEffect } from 'react';
import { Alert, Anchor, Group, Progress, Text } from '@mantine/core';
import { useQuery } from 'urql';
import { graphql } from '../gql';

const JobQuery = graphql(`
  query AdminJobProgress($id: UUID!) {
    job(id: $id) {
      id
      status
      output
      error
    }
  }
`);

interface BulkOutput {
  rowsDone?: number;
  rowsTotal?: number;
  rows?: number;
  file?: { url?: string };
  errorReport?: { url?: string };
}

export function JobProgress({ jobId, label }: { jobId: string; label: string }) {
  const [{ data, error }, refetch] = useQuery({ query: JobQuery, variables: { id: jobId }, requestPolicy: 'network-only' });
  const job = data?.job;
  const running = !job || job.status === 'pending' || job.status === 'processing';
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => refetch({ requestPolicy: 'network-only' }), 1000);
    return () => clearInterval(timer);
  }, [running, refetch]);
  const output = (job?.output ?? {}) as BulkOutput;
  const known = typeof output.rowsTotal === 'number' && output.rowsTotal > 0;
  const percent = known ? Math.round(((output.rowsDone ?? 0) / (output.rowsTotal as number)) * 100) : 100;
  const state = !job ? 'Starting…' : job.status === 'pending' ? 'Queued…' : job.status === 'processing' ? 'Working…' : job.status === 'succeeded' ? 'Done' : 'Failed';
  return (
    <div role="status" aria-live="polite">
      <Group justify="space-between" mb={4}>
        <Text size="sm" fw={500}>
          {label}: {state}
        </Text>
        <Text size="sm" c="dimmed">
          {known ? `${output.rowsDone ?? 0} of ${output.rowsTotal} rows (${percent}%)` : running ? '' : typeof output.rows === 'number' ? `${output.rows} rows` : ''}
        </Text>
      </Group>
      <Progress
        value={running ? percent : 100}
        striped={running}
        animated={running && !known}
        color={job?.status === 'failed' ? 'red.9' : job?.status === 'succeeded' ? 'teal.9' : undefined}
        aria-label={`${label} progress`}
      />
      {job?.status === 'succeeded' && output.file?.url && (
        <Anchor href={output.file.url} size="sm" mt={4} display="inline-block">
          Download the CSV
        </Anchor>
      )}
      {job?.status === 'succeeded' && output.errorReport?.url && (
        <Anchor href={output.errorReport.url} size="sm" mt={4} display="inline-block">
          Download the error report
        </Anchor>
      )}
      {(job?.error || error) && (
        <Alert color="red" role="alert" mt="xs">
          {job?.error ?? error?.message}
        </Alert>
      )}
    </div>
  );
}

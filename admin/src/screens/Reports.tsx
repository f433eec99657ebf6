// Reports: the six built-in reports, each as a table with totals, a bar chart of its first
// numeric column, and a CSV download (the same GET with Accept: text/csv, through the session).
import { useState } from 'react';
import { Button, Card, Group, Progress, Select, Table, Text, TextInput, Title } from '@mantine/core';
import { BarChart } from '@mantine/charts';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote } from '../components/ErrorNote';
import { money } from '../format';

const ReportsQuery = graphql(`
  query AdminReports {
    analyticsReports {
      name
      title
      description
      parameters
    }
  }
`);

const ReportQuery = graphql(`
  query AdminReport($name: String!, $date: String, $from: String, $to: String) {
    analyticsReport(name: $name, date: $date, from: $from, to: $to) {
      data
      meta {
        title
        currency
        totals
        columns {
          key
          title
          type
        }
      }
    }
  }
`);

function cell(value: unknown, type: string, currency: string): string {
  if (value === null || value === undefined) return '—';
  if (type === 'currency') return money(Number(value), currency);
  return String(value);
}

/** Bytes received of the CSV so far, and the whole size when the server sent a content-length. */
interface DownloadProgress {
  received: number;
  total: number | null;
}

// The body is read chunk by chunk so the screen can show how far a long report has come.
async function downloadCsv(name: string, params: Record<string, string>, onProgress: (progress: DownloadProgress) => void): Promise<void> {
  const query = new URLSearchParams(Object.entries(params).filter(([, v]) => v)).toString();
  const response = await fetch(`/api/analytics/reports/${name}${query ? `?${query}` : ''}`, { credentials: 'include', headers: { accept: 'text/csv' } });
  const total = Number(response.headers.get('content-length')) || null;
  const chunks: Uint8Array[] = [];
  let received = 0;
  onProgress({ received, total });
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    received += value.length;
    onProgress({ received, total });
  }
  const blob = new Blob(chunks as BlobPart[], { type: response.headers.get('content-type') ?? 'text/csv' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1] ?? `${name}.csv`;
  link.click();
  URL.revokeObjectURL(link.href);
}

function kilobytes(bytes: number): string {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

export default function Reports() {
  const [{ data: list }] = useQuery({ query: ReportsQuery });
  const [name, setName] = useState('daily-journal');
  const [date, setDate] = useState('');
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [download, setDownload] = useState<DownloadProgress | null>(null);
  const info = list?.analyticsReports?.find((r) => r.name === name);
  const params = info?.parameters ?? [];
  const variables = {
    name,
    date: params.includes('date') && date ? date : undefined,
    from: params.includes('from') && from ? from : undefined,
    to: params.includes('to') && to ? to : undefined,
  };
  const [{ data, error }] = useQuery({ query: ReportQuery, variables });
  const report = data?.analyticsReport;
  const currency = report?.meta.currency ?? 'USD';
  const columns = report?.meta.columns ?? [];
  const label = columns.find((c) => c.type === 'string') ?? columns[0];
  const measure = columns.find((c) => c.type === 'currency') ?? columns.find((c) => c.type === 'number');
  const chart =
    label && measure
      ? (report?.data ?? []).map((row) => ({ label: String(row[label.key] ?? ''), value: Number(row[measure.key] ?? 0) / (measure.type === 'currency' ? 100 : 1) }))
      : [];
  const totals = (report?.meta.totals ?? null) as Record<string, unknown> | null;
  return (
    <>
      <Title order={1} size="h2" mb="md">
        Reports
      </Title>
      <Group align="end" mb="md">
        <Select
          label="Report"
          data={(list?.analyticsReports ?? []).map((r) => ({ value: r.name, label: r.title }))}
          value={name}
          onChange={(v) => setName(v ?? 'daily-journal')}
          allowDeselect={false}
          w={240}
        />
        {params.includes('date') && <TextInput label="Date" placeholder="YYYY-MM-DD" value={date} onChange={(e) => setDate(e.currentTarget.value)} w={140} />}
        {params.includes('from') && <TextInput label="From" placeholder="YYYY-MM-DD" value={from} onChange={(e) => setFrom(e.currentTarget.value)} w={140} />}
        {params.includes('to') && <TextInput label="To" placeholder="YYYY-MM-DD" value={to} onChange={(e) => setTo(e.currentTarget.value)} w={140} />}
        <Button
          variant="default"
          loading={download !== null}
          onClick={async () => {
            setDownload({ received: 0, total: null });
            try {
              await downloadCsv(name, { date: variables.date ?? '', from: variables.from ?? '', to: variables.to ?? '' }, setDownload);
            } finally {
              setDownload(null);
            }
          }}
        >
          Download CSV
        </Button>
      </Group>
      {download && (
        <div role="status" aria-live="polite">
          <Text size="sm" mb={4}>
            Preparing the CSV…{' '}
            {download.received ? `${kilobytes(download.received)}${download.total ? ` of ${kilobytes(download.total)}` : ''} received` : 'waiting for the server'}
          </Text>
          <Progress
            value={download.total ? Math.round((download.received / download.total) * 100) : 100}
            striped
            animated={!download.total}
            aria-label="CSV download progress"
            mb="md"
          />
        </div>
      )}
      {info && (
        <Text size="sm" c="dimmed" mb="sm">
          {info.description}
        </Text>
      )}
      <ErrorNote error={error} />
      {chart.length > 0 && measure && (
        <Card withBorder mb="md">
          <BarChart h={220} data={chart} dataKey="label" series={[{ name: 'value', label: measure.title, color: 'teal.7' }]} />
        </Card>
      )}
      <Table striped aria-label={report?.meta.title ?? 'Report'}>
        <Table.Thead>
          <Table.Tr>
            {columns.map((c) => (
              <Table.Th key={c.key}>{c.title}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {(report?.data ?? []).map((row) => (
            <Table.Tr key={columns.map((c) => String(row[c.key])).join('|')}>
              {columns.map((c) => (
                <Table.Td key={c.key}>{cell(row[c.key], c.type, currency)}</Table.Td>
              ))}
            </Table.Tr>
          ))}
          {totals && (
            <Table.Tr fw={700}>
              {columns.map((c, i) => (
                <Table.Td key={c.key}>{i === 0 ? 'Total' : c.key in totals ? cell(totals[c.key], c.type, currency) : ''}</Table.Td>
              ))}
            </Table.Tr>
          )}
        </Table.Tbody>
      </Table>
    </>
  );
}

// Home: today's sales (daily-journal totals), orders waiting for fulfilment, low-stock levels,
// and 30 days of revenue from the analytics layer.
import { Card, SimpleGrid, Text, Title } from '@mantine/core';
import { AreaChart } from '@mantine/charts';
import { useQuery } from 'urql';
import { graphql } from '../gql';
import { ErrorNote } from '../components/ErrorNote';
import { money } from '../format';

const HomeQuery = graphql(`
  query AdminHome {
    today: analyticsReport(name: "daily-journal") {
      meta {
        totals
        currency
      }
    }
    toFulfil: orders(first: 1, status: confirmed) {
      totalCount
    }
    processing: orders(first: 1, status: processing) {
      totalCount
    }
    lowStock: inventoryLevels(first: 1, lowStock: true) {
      totalCount
    }
    sales: analyticsQuery(measures: ["Orders.revenue", "Orders.count"], timeDimensions: [{ dimension: "Orders.placedAt", granularity: "day", dateRange: ["last 30 days"] }]) {
      data
    }
  }
`);

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card withBorder>
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fz={28} fw={700}>
        {value}
      </Text>
    </Card>
  );
}

export default function Home() {
  const [{ data, error }] = useQuery({ query: HomeQuery });
  const totals = (data?.today?.meta.totals ?? {}) as Record<string, number>;
  const currency = data?.today?.meta.currency ?? 'USD';
  const series = (data?.sales?.data ?? []).map((row) => {
    const day = Object.entries(row).find(([k]) => k.startsWith('Orders.placedAt'))?.[1];
    return { day: String(day ?? '').slice(0, 10), revenue: Number(row['Orders.revenue'] ?? 0) / 100 };
  });
  return (
    <>
      <Title order={1} size="h2" mb="md">
        Home
      </Title>
      <ErrorNote error={error} />
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} mb="lg">
        <Stat label="Today's sales" value={money(totals.revenue ?? 0, currency)} />
        <Stat label="Orders today" value={String(totals.orders ?? 0)} />
        <Stat label="Orders to fulfil" value={String((data?.toFulfil?.totalCount ?? 0) + (data?.processing?.totalCount ?? 0))} />
        <Stat label="Low-stock levels" value={String(data?.lowStock?.totalCount ?? 0)} />
      </SimpleGrid>
      <Card withBorder>
        <Title order={2} size="h4" mb="sm">
          Revenue, last 30 days ({currency})
        </Title>
        {series.length ? (
          <AreaChart h={260} data={series} dataKey="day" series={[{ name: 'revenue', color: 'indigo.6' }]} curveType="monotone" />
        ) : (
          <Text c="dimmed">No orders in the last 30 days.</Text>
        )}
      </Card>
    </>
  );
}

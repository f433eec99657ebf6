// One customer: profile (name, phone), group membership (add/remove: customerUpdate replaces the
// list), recent orders, saved addresses, store credit (balances, ledger, credit or debit) and the
// gift cards sent to their e-mail. Each block asks for what its own permission allows, so a
// caller without store credit or gift card rights still sees the rest.
import { useState, type ReactNode } from 'react';
import { Anchor, Badge, Button, Card, CloseButton, Group, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useForm } from 'react-hook-form';
import { Link, useParams } from 'react-router-dom';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import type { CustomerStoreCreditMoveType } from '../../gql/graphql';
import { applyFieldIssues, errorMessage } from '../../api/errors';
import { ErrorNote } from '../../components/ErrorNote';
import { useSession } from '../../session';
import { dateTime, money, toMinor } from '../../format';

const CustomerQuery = graphql(`
  query AdminCustomer($id: UUID!) {
    customer(id: $id) {
      id
      name
      email
      phone
      createdAt
      marketingConsent
      ordersCount
      lifetimeValue
      lastOrderAt
      customerGroupIds
      addresses {
        id
        firstName
        lastName
        company
        line1
        line2
        city
        state
        postalCode
        country
        phone
        isDefaultShipping
        isDefaultBilling
      }
    }
  }
`);

const CustomerOrdersQuery = graphql(`
  query AdminCustomerOrders($id: UUID!) {
    customer(id: $id) {
      id
      orders(limit: 20) {
        id
        orderNumber
        status
        paymentStatus
        grandTotal
        currency
        placedAt
      }
    }
  }
`);

const StoreCreditQuery = graphql(`
  query AdminCustomerStoreCredit($id: UUID!) {
    customerStoreCredit(id: $id) {
      customerId
      balances {
        currency
        balance
      }
      entries {
        id
        amount
        balanceAfter
        currency
        reason
        sourceType
        createdAt
      }
    }
  }
`);

const GiftCardsQuery = graphql(`
  query AdminCustomerGiftCards($email: String!) {
    giftCards(recipientEmail: $email, first: 20) {
      data {
        id
        maskedCode
        state
        balance
        initialBalance
        currency
        expiresAt
      }
    }
  }
`);

const UpdateCustomer = graphql(`
  mutation AdminCustomerUpdate($id: UUID!, $name: String, $phone: String, $customerGroupIds: [String!]) {
    customerUpdate(id: $id, name: $name, phone: $phone, customerGroupIds: $customerGroupIds) {
      id
      name
      phone
      customerGroupIds
    }
  }
`);

const MoveStoreCredit = graphql(`
  mutation AdminStoreCreditMove($id: UUID!, $type: CustomerStoreCreditMoveType!, $amount: MinorUnits!, $currency: String!, $reason: String!) {
    customerStoreCreditMove(id: $id, type: $type, amount: $amount, currency: $currency, reason: $reason) {
      customerId
    }
  }
`);

function Profile({ id, name, phone }: { id: string; name: string; phone: string | null }) {
  const [state, update] = useMutation(UpdateCustomer);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<{ name: string; phone: string }>({ values: { name, phone: phone ?? '' } });
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    const result = await update({ id, name: values.name.trim(), phone: values.phone.trim() || undefined });
    if (result.error) setProblem(applyFieldIssues(result.error, ['name', 'phone'], form.setError));
    else notifications.show({ message: 'Saved profile' });
  });
  return (
    <form onSubmit={submit} noValidate>
      <Group align="start">
        <TextInput
          label="Name"
          {...form.register('name', { required: 'A name is required', maxLength: { value: 200, message: 'At most 200 characters' } })}
          error={form.formState.errors.name?.message}
        />
        <TextInput label="Phone" {...form.register('phone', { maxLength: { value: 50, message: 'At most 50 characters' } })} error={form.formState.errors.phone?.message} />
        <Button type="submit" variant="default" mt={25} loading={state.fetching}>
          Save profile
        </Button>
      </Group>
      {problem && (
        <Text c="red.8" role="alert">
          {problem}
        </Text>
      )}
    </form>
  );
}

function Groups({ id, groups, onChanged }: { id: string; groups: readonly string[]; onChanged(): void }) {
  const [state, update] = useMutation(UpdateCustomer);
  const form = useForm<{ group: string }>({ defaultValues: { group: '' } });
  async function save(next: string[]) {
    const result = await update({ id, customerGroupIds: next });
    if (result.error) {
      const unplaced = applyFieldIssues(result.error, ['group'], () => undefined);
      form.setError('group', { message: unplaced ?? errorMessage(result.error) });
      return false;
    }
    onChanged();
    return true;
  }
  const add = form.handleSubmit(async ({ group }) => {
    const key = group.trim();
    if (groups.includes(key)) return form.setError('group', { message: 'Already a member' });
    if (await save([...groups, key])) form.reset({ group: '' });
  });
  return (
    <>
      {groups.length ? (
        <Group gap="xs" mb="sm" aria-label="Customer groups" role="list">
          {groups.map((g) => (
            <Badge
              key={g}
              role="listitem"
              variant="light"
              color="dark"
              size="lg"
              tt="none"
              rightSection={<CloseButton size="xs" aria-label={`Remove group ${g}`} onClick={() => save(groups.filter((x) => x !== g))} disabled={state.fetching} />}
            >
              {g}
            </Badge>
          ))}
        </Group>
      ) : (
        <Text size="sm" mb="sm">
          Not in any group.
        </Text>
      )}
      <form onSubmit={add} noValidate>
        <Group align="start">
          <TextInput
            label="Group key"
            placeholder="wholesale"
            description="As used in prices, promotions and tax exemptions"
            {...form.register('group', {
              required: 'A group key is required',
              maxLength: { value: 100, message: 'At most 100 characters' },
            })}
            error={form.formState.errors.group?.message}
          />
          <Button type="submit" variant="default" mt={46} loading={state.fetching}>
            Add to group
          </Button>
        </Group>
      </form>
    </>
  );
}

function StoreCredit({ id, canMove }: { id: string; canMove: boolean }) {
  const [{ data, error }, refetch] = useQuery({ query: StoreCreditQuery, variables: { id } });
  const [state, move] = useMutation(MoveStoreCredit);
  const [problem, setProblem] = useState<string | null>(null);
  const form = useForm<{ type: CustomerStoreCreditMoveType; currency: string; amount: string; reason: string }>({
    defaultValues: { type: 'credit', currency: 'USD', amount: '', reason: '' },
  });
  const credit = data?.customerStoreCredit;
  const submit = form.handleSubmit(async (values) => {
    setProblem(null);
    const currency = values.currency.trim().toUpperCase();
    const result = await move({ id, type: values.type, currency, amount: toMinor(values.amount, currency), reason: values.reason.trim() });
    if (result.error) return setProblem(applyFieldIssues(result.error, ['amount', 'currency', 'reason', 'type'], form.setError));
    notifications.show({ message: `Store credit ${values.type === 'credit' ? 'added' : 'taken'}` });
    form.reset({ ...values, amount: '', reason: '' });
    refetch({ requestPolicy: 'network-only' });
  });
  return (
    <>
      <ErrorNote error={error} />
      <Group mb="sm">
        {(credit?.balances ?? []).map((b) => (
          <Text key={b.currency}>
            Balance <b>{money(b.balance, b.currency)}</b>
          </Text>
        ))}
        {credit && !credit.balances.length && <Text size="sm">No store credit.</Text>}
      </Group>
      {!!credit?.entries.length && (
        <Table aria-label="Store credit ledger" mb="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>When</Table.Th>
              <Table.Th>Reason</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>Amount</Table.Th>
              <Table.Th style={{ textAlign: 'right' }}>Balance after</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {credit.entries.slice(0, 20).map((e) => (
              <Table.Tr key={e.id}>
                <Table.Td>{dateTime(e.createdAt)}</Table.Td>
                <Table.Td>{e.reason}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{money(e.amount, e.currency)}</Table.Td>
                <Table.Td style={{ textAlign: 'right' }}>{money(e.balanceAfter, e.currency)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canMove && (
        <form onSubmit={submit} noValidate>
          <Group align="start">
            <Select
              label="Move"
              data={[
                { value: 'credit', label: 'Credit (add)' },
                { value: 'debit', label: 'Debit (take)' },
              ]}
              value={form.watch('type')}
              onChange={(v) => form.setValue('type', (v ?? 'credit') as CustomerStoreCreditMoveType)}
              allowDeselect={false}
              w={150}
            />
            <TextInput
              label="Currency"
              w={100}
              {...form.register('currency', { required: 'Required', pattern: { value: /^[A-Za-z]{3}$/, message: 'An ISO 4217 code' } })}
              error={form.formState.errors.currency?.message}
            />
            <TextInput
              label="Amount"
              placeholder="10.00"
              w={120}
              {...form.register('amount', {
                required: 'Required',
                pattern: { value: /^\d+(\.\d{1,3})?$/, message: 'A positive amount such as 10.00' },
                validate: (v) => Number(v) > 0 || 'More than zero',
              })}
              error={form.formState.errors.amount?.message}
            />
            <TextInput
              label="Reason"
              placeholder="Goodwill for a late delivery"
              style={{ flex: 1 }}
              {...form.register('reason', { required: 'Say why (the customer sees it)', maxLength: { value: 500, message: 'At most 500 characters' } })}
              error={form.formState.errors.reason?.message}
            />
            <Button type="submit" variant="default" mt={25} loading={state.fetching}>
              Apply
            </Button>
          </Group>
          {problem && (
            <Text c="red.8" role="alert" mt="xs">
              {problem}
            </Text>
          )}
        </form>
      )}
    </>
  );
}

function GiftCards({ email }: { email: string }) {
  const [{ data, error }] = useQuery({ query: GiftCardsQuery, variables: { email } });
  const cards = data?.giftCards?.data ?? [];
  if (error) return <ErrorNote error={error} />;
  if (!cards.length) return <Text size="sm">No gift cards sent to {email}.</Text>;
  return (
    <Table aria-label="Gift cards">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Code</Table.Th>
          <Table.Th>State</Table.Th>
          <Table.Th style={{ textAlign: 'right' }}>Balance</Table.Th>
          <Table.Th style={{ textAlign: 'right' }}>Issued with</Table.Th>
          <Table.Th>Expires</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {cards.map((c) => (
          <Table.Tr key={c.id}>
            <Table.Td>{c.maskedCode}</Table.Td>
            <Table.Td>{c.state}</Table.Td>
            <Table.Td style={{ textAlign: 'right' }}>{money(c.balance, c.currency)}</Table.Td>
            <Table.Td style={{ textAlign: 'right' }}>{money(c.initialBalance, c.currency)}</Table.Td>
            <Table.Td>{dateTime(c.expiresAt)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Orders({ id }: { id: string }) {
  const [{ data, error }] = useQuery({ query: CustomerOrdersQuery, variables: { id } });
  const orders = data?.customer?.orders ?? [];
  if (error) return <ErrorNote error={error} />;
  if (!orders.length) return <Text size="sm">No orders yet.</Text>;
  return (
    <Table aria-label="Customer orders">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Order</Table.Th>
          <Table.Th>Placed</Table.Th>
          <Table.Th>Status</Table.Th>
          <Table.Th>Payment</Table.Th>
          <Table.Th style={{ textAlign: 'right' }}>Total</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {orders.map((o) => (
          <Table.Tr key={o.id}>
            <Table.Td>
              <Anchor component={Link} to={`/orders/${o.id}`}>
                {o.orderNumber}
              </Anchor>
            </Table.Td>
            <Table.Td>{dateTime(o.placedAt)}</Table.Td>
            <Table.Td>{o.status}</Table.Td>
            <Table.Td>{o.paymentStatus}</Table.Td>
            <Table.Td style={{ textAlign: 'right' }}>{money(o.grandTotal, o.currency)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `customer-${title.toLowerCase().replace(/\W+/g, '-')}`;
  return (
    <Card withBorder component="section" aria-labelledby={id}>
      <Title order={2} size="h4" mb="sm" id={id}>
        {title}
      </Title>
      {children}
    </Card>
  );
}

export default function CustomerDetail() {
  const { id = '' } = useParams();
  const session = useSession();
  const [{ data, error }, refetch] = useQuery({ query: CustomerQuery, variables: { id } });
  const customer = data?.customer;
  if (error) return <ErrorNote error={error} />;
  if (!customer) return <Text>Loading…</Text>;
  const canUpdate = session.can('customers:update');
  return (
    <Stack>
      <Group justify="space-between" align="start">
        <div>
          <Anchor component={Link} to="/customers" size="sm">
            ← Customers
          </Anchor>
          <Title order={1} size="h2">
            {customer.name || customer.email}
          </Title>
          <Text size="sm">
            {customer.email}
            {customer.phone ? ` · ${customer.phone}` : ''} · customer since {dateTime(customer.createdAt)}
            {customer.marketingConsent ? ' · accepts marketing' : ''}
          </Text>
        </div>
        <Group gap="xl">
          <div>
            <Text size="xs" c="dimmed">
              Orders
            </Text>
            <Text fw={600}>{customer.ordersCount}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              Lifetime value
            </Text>
            <Text fw={600}>{money(customer.lifetimeValue)}</Text>
          </div>
          <div>
            <Text size="xs" c="dimmed">
              Last order
            </Text>
            <Text fw={600}>{dateTime(customer.lastOrderAt)}</Text>
          </div>
        </Group>
      </Group>
      {canUpdate && (
        <Section title="Profile">
          <Profile id={customer.id} name={customer.name} phone={customer.phone ?? null} />
        </Section>
      )}
      <Section title="Groups">
        {canUpdate ? (
          <Groups id={customer.id} groups={customer.customerGroupIds} onChanged={() => refetch({ requestPolicy: 'network-only' })} />
        ) : (
          <Text size="sm">{customer.customerGroupIds.join(', ') || 'Not in any group.'}</Text>
        )}
      </Section>
      {session.can('orders:read') && (
        <Section title="Orders">
          <Orders id={customer.id} />
        </Section>
      )}
      <Section title="Addresses">
        {!customer.addresses?.length && <Text size="sm">No saved addresses.</Text>}
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {(customer.addresses ?? []).map((a) => (
            <Card key={a.id} withBorder padding="sm">
              <Text size="sm" fw={600}>
                {a.firstName} {a.lastName}
                {a.company ? `, ${a.company}` : ''}
              </Text>
              <Text size="sm">{[a.line1, a.line2].filter(Boolean).join(', ')}</Text>
              <Text size="sm">{[a.postalCode, a.city, a.state, a.country].filter(Boolean).join(' ')}</Text>
              {a.phone && <Text size="sm">{a.phone}</Text>}
              <Group gap={4} mt={4}>
                {a.isDefaultShipping && <Badge size="sm">Default shipping</Badge>}
                {a.isDefaultBilling && <Badge size="sm">Default billing</Badge>}
              </Group>
            </Card>
          ))}
        </SimpleGrid>
      </Section>
      {(session.can('storecredit:read') || session.can('storecredit:manage')) && (
        <Section title="Store credit">
          <StoreCredit id={customer.id} canMove={session.can('storecredit:manage')} />
        </Section>
      )}
      {(session.can('giftcards:read') || session.can('giftcards:manage')) && (
        <Section title="Gift cards">
          <GiftCards email={customer.email} />
        </Section>
      )}
    </Stack>
  );
}

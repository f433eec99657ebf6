// The marketplace plugin's screen: vendors waiting for approval, approve one.
import { Button } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery } from 'urql';
import { graphql } from '../../gql';
import { errorMessage } from '../../api/errors';
import { ListScreen } from '../../components/ListScreen';
import { dateTime } from '../../format';

const PendingVendors = graphql(`
  query AdminPendingVendors {
    marketplaceVendors(status: pending, limit: 100) {
      data {
        id
        name
        email
        createdAt
      }
    }
  }
`);

const ApproveVendor = graphql(`
  mutation AdminVendorApprove($id: UUID!) {
    marketplaceVendorApprove(id: $id) {
      id
      status
    }
  }
`);

export default function VendorQueue() {
  const [{ data, error }, refetch] = useQuery({ query: PendingVendors });
  const [, approve] = useMutation(ApproveVendor);
  async function onApprove(id: string) {
    const result = await approve({ id });
    notifications.show(result.error ? { color: 'red', message: errorMessage(result.error) } : { message: 'Vendor approved' });
    refetch({ requestPolicy: 'network-only' });
  }
  return (
    <ListScreen
      title="Vendor approvals"
      page={data?.marketplaceVendors}
      error={error}
      rowKey={(v) => v.id}
      columns={[
        { key: 'name', title: 'Vendor', render: (v) => v.name },
        { key: 'email', title: 'Email', render: (v) => v.email },
        { key: 'at', title: 'Applied', render: (v) => dateTime(v.createdAt) },
        {
          key: 'approve',
          title: 'Decision',
          render: (v) => (
            <Button size="xs" onClick={() => onApprove(v.id)}>
              Approve
            </Button>
          ),
        },
      ]}
    />
  );
}

import { Alert } from '@mantine/core';
import type { CombinedError } from 'urql';
import { errorMessage } from '../api/errors';

export function ErrorNote({ error }: { error?: CombinedError }) {
  if (!error) return null;
  return (
    <Alert color="red" role="alert" my="sm">
      {errorMessage(error)}
    </Alert>
  );
}

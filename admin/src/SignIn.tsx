// Email and password against better-auth (cookie session), then the authenticator code when the
// account has two-factor on.
import { useState } from 'react';
import { Alert, Button, Center, Paper, PasswordInput, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { signIn, verifyTotp } from './api/auth';

interface Props {
  onSignedIn(): void;
  twoFactorEnrolment: boolean;
}

export function SignIn({ onSignedIn, twoFactorEnrolment }: Props) {
  const [step, setStep] = useState<'password' | 'code'>('password');
  const [message, setMessage] = useState<string | null>(twoFactorEnrolment ? 'Your role must use two-factor sign-in: enrol an authenticator, then sign in again.' : null);
  const form = useForm<{ email: string; password: string; code: string }>({ defaultValues: { email: '', password: '', code: '' } });
  const submit = form.handleSubmit(async (values) => {
    setMessage(null);
    const outcome = step === 'password' ? await signIn(values.email, values.password) : await verifyTotp(values.code);
    if (outcome.kind === 'error') setMessage(outcome.message);
    else if (outcome.kind === 'twoFactor') setStep('code');
    else onSignedIn();
  });
  return (
    <Center h="100vh" component="main">
      <Paper withBorder shadow="sm" p="xl" w={380}>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Title order={1} size="h3">
              Sign in to the dashboard
            </Title>
            {message && (
              <Alert color="red" role="alert">
                {message}
              </Alert>
            )}
            {step === 'password' ? (
              <>
                <TextInput label="Email" type="email" autoComplete="username" required {...form.register('email', { required: true })} />
                <PasswordInput label="Password" autoComplete="current-password" required {...form.register('password', { required: true })} />
              </>
            ) : (
              <TextInput label="Authenticator code" inputMode="numeric" autoComplete="one-time-code" required {...form.register('code', { required: true })} />
            )}
            <Button type="submit" loading={form.formState.isSubmitting}>
              {step === 'password' ? 'Sign in' : 'Verify'}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}

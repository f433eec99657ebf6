// One urql client for the dashboard: same-origin /graphql with the session cookie. urql's fetch
// exchange sends files (mediaUpload) as a GraphQL multipart request, which the server accepts.
import { Client, cacheExchange, fetchExchange } from 'urql';

export const client = new Client({
  url: '/graphql',
  exchanges: [cacheExchange, fetchExchange],
  fetchOptions: { credentials: 'include' },
  // Lists change under other users' hands: a screen shows the server's answer, then refreshes.
  requestPolicy: 'cache-and-network',
});

import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dropzone/styles.css';
import '@mantine/charts/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { BrowserRouter } from 'react-router-dom';
import { Provider } from 'urql';
import { client } from './api/client';
import { SessionProvider } from './session';
import { Shell } from './Shell';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider>
      <Notifications />
      <Provider value={client}>
        <BrowserRouter basename="/admin">
          <SessionProvider>
            <Shell />
          </SessionProvider>
        </BrowserRouter>
      </Provider>
    </MantineProvider>
  </StrictMode>,
);

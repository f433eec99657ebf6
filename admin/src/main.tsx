import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/dropzone/styles.css';
import '@mantine/charts/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider, NavLink, Notification, Select, createTheme, type CSSVariablesResolver } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { BrowserRouter } from 'react-router-dom';
import { Provider } from 'urql';
import { client } from './api/client';
import { SessionProvider } from './session';
import { Shell } from './Shell';
import { preloadScreen } from './nav';
import { prefetchFirstScreen } from './prefetch';

// Darker shades than Mantine's defaults: axe-core's contrast rule (4.5:1) fails the default
// primary (blue.6 under white text, and as the active nav label) and `dimmed` (gray.6) text.
// The active nav entry is filled (white on blue.8): the light variant's blue text fails contrast.
// Field errors (text and the invalid input's own text) in red.8: the default red.6 fails contrast too.
// Close and clear buttons carry names (axe's button-name rule; they are icons only).
const theme = createTheme({
  primaryShade: { light: 8, dark: 8 },
  components: {
    NavLink: NavLink.extend({ defaultProps: { variant: 'filled' } }),
    Notification: Notification.extend({ defaultProps: { closeButtonProps: { 'aria-label': 'Close notification' } } }),
    Select: Select.extend({ defaultProps: { clearButtonProps: { 'aria-label': 'Clear selection' } } }),
  },
});
const resolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)', '--mantine-color-error': 'var(--mantine-color-red-8)' },
  dark: {},
});

preloadScreen(window.location.pathname);
prefetchFirstScreen(window.location);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} cssVariablesResolver={resolver}>
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

import { useState } from 'react';
import { createBrowserRouter, RouterProvider } from 'react-router';
import { ConfirmProvider } from '../shell/confirm/ConfirmProvider.js';
import { routes } from './routes.js';

/** Every page of SPEC §2 behind the router. Its own chunk: a signed-out start at `/` does not load it. */
export function RoutedApp() {
  // Made as it first renders: after a signed-out start it is made at /dashboard, where the sign-in has moved to.
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <ConfirmProvider>
      <RouterProvider router={router} />
    </ConfirmProvider>
  );
}

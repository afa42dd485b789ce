import { createBrowserRouter, RouterProvider } from 'react-router';
import { AppProviders } from './AppProviders.js';
import { routes } from './routes.js';

const router = createBrowserRouter(routes);

export function App() {
  return (
    <AppProviders>
      <RouterProvider router={router} />
    </AppProviders>
  );
}

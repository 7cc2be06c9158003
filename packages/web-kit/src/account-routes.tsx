import { lazy, type ReactNode } from 'react';
import { Route } from 'react-router-dom';
import { LazyPage } from './entry.tsx';

const PeoplePage = lazy(() => import('./people-page.tsx'));
const AccountPage = lazy(() => import('./account-page.tsx'));

/**
 * The pages every UI has beside its own, each drawn in the UI's frame: **People** (`/people`, admins) and
 * **Account** (`/account`). A UI's `<Routes>` lists them: `{accountRoutes((page) => <Shell>{page}</Shell>)}`.
 */
export function accountRoutes(frame: (page: ReactNode) => ReactNode): ReactNode[] {
  return [
    <Route
      key="people"
      path="/people"
      element={frame(
        <LazyPage>
          <PeoplePage />
        </LazyPage>,
      )}
    />,
    <Route
      key="account"
      path="/account"
      element={frame(
        <LazyPage>
          <AccountPage />
        </LazyPage>,
      )}
    />,
  ];
}

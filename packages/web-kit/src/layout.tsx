import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

/** The page frame: a top bar with the product name, the service's navigation and a right-hand area (switcher, user, Sign out). */
export function AppShell({ product, home, nav, right, children }: { product: string; home: string; nav: ReactNode; right: ReactNode; children: ReactNode }) {
  return (
    <div className="shell">
      <header className="topbar">
        <Link to={home} className="brand">
          <span className="brand-mark" aria-hidden="true" />
          {product}
        </Link>
        <nav className="nav" aria-label="Main">
          {nav}
        </nav>
        <div className="topbar-right">{right}</div>
      </header>
      <main className="main" id="main">
        {children}
      </main>
    </div>
  );
}

import { StrictMode, Suspense, lazy, useState, type ComponentType, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { Loading } from './states.tsx';
import { ToastProvider } from './toast.tsx';

/** Renders a UI's app into the page frame's `#root`, with the router and the toasts every page uses. */
export function mountApp(app: ReactNode): void {
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <BrowserRouter>
        <ToastProvider>{app}</ToastProvider>
      </BrowserRouter>
    </StrictMode>,
  );
}

/**
 * A page in a chunk of its own that draws at once when the chunk is loaded
 * already (`preload()` started it, e.g. for a page opened directly). A lazy
 * page suspends even then, and React reveals suspended content no sooner than
 * 300 ms after its fallback; the page is chosen once per mount, so a loaded
 * page is never remounted.
 */
export function preloadablePage<P extends object>(
  load: () => Promise<{ default: ComponentType<P> }>,
): { Page: ComponentType<P>; preload: () => Promise<unknown> } {
  let loaded: ComponentType<P> | undefined;
  const preload = () =>
    load().then((module) => {
      loaded = module.default;
      return module;
    });
  const Lazy = lazy(preload);
  // biome-ignore lint/correctness/noComponentHookFactories: called once per page at module level, as lazy() is, so each Page is one stable component with its own chunk's loader.
  function Page(props: P) {
    const [Chosen] = useState<ComponentType<P>>(() => loaded ?? Lazy);
    return <Chosen {...props} />;
  }
  return { Page, preload };
}

/** A lazily loaded page, in the centred column (or, `full`, filling the window: a canvas), with the loading state while its chunk arrives. */
export function LazyPage({ children, full }: { children: ReactNode; full?: boolean }) {
  return <Suspense fallback={<Loading />}>{full ? children : <div className="page">{children}</div>}</Suspense>;
}

/**
 * The React side of islands: every island renders inside CrashBoundary, so a render
 * error shows "This page crashed." with a "Try again" button in the island's place
 * while the rest of the page keeps working (spec §8).
 *
 * Only island modules import this file, so React stays out of the router bundle that
 * every page loads.
 *
 *   import { mountReact } from '../island-root.tsx';
 *   export function mount(element: HTMLElement, props: Props) {
 *     return mountReact(element, <Search {...props} />);
 *   }
 */
import { Component, Fragment, type ErrorInfo, type ReactNode } from 'react';
import { createRoot, hydrateRoot, type Root } from 'react-dom/client';
import { MESSAGES } from '../shared/index.ts';

interface BoundaryState {
  error: Error | null;
  /** Bumped by "Try again": a new key mounts the island afresh instead of reusing broken state. */
  attempt: number;
}

export class CrashBoundary extends Component<{ children: ReactNode }, BoundaryState> {
  override state: BoundaryState = { error: null, attempt: 0 };

  static getDerivedStateFromError(error: unknown): Partial<BoundaryState> {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('docsgen: an interactive part of this page crashed.', error, info.componentStack);
  }

  retry = (): void => {
    this.setState((state) => ({ error: null, attempt: state.attempt + 1 }));
  };

  override render(): ReactNode {
    const { error, attempt } = this.state;
    if (error) return <CrashMessage error={error} onRetry={this.retry} />;
    // The first render adds no element, so hydration sees exactly the server markup.
    return <Fragment key={attempt}>{this.props.children}</Fragment>;
  }
}

export function CrashMessage({ error, onRetry }: { error: Error; onRetry: () => void }) {
  return (
    <div className="island-crash" role="alert">
      <p className="island-crash__title">{MESSAGES.crashed}</p>
      <p className="island-crash__message">{error.message}</p>
      <button type="button" className="button button--primary island-crash__retry" onClick={onRetry}>
        {MESSAGES.tryAgain}
      </button>
    </div>
  );
}

export interface MountReactOptions {
  /**
   * Hydrate the server-rendered markup already inside `element` (the default when it
   * has any) instead of replacing it. Pass false when the island renders something
   * else than the server placeholder, or hydration reports a mismatch.
   */
  hydrate?: boolean;
}

/** Renders or hydrates `node` into `element` inside the crash boundary; returns the unmount function islands.ts calls. */
export function mountReact(element: HTMLElement, node: ReactNode, options: MountReactOptions = {}): () => void {
  const tree = <CrashBoundary>{node}</CrashBoundary>;
  const hydrate = options.hydrate ?? element.firstElementChild !== null;
  let root: Root;
  if (hydrate) {
    // React only: preact/compat (PREACT_ISLANDS in cli/stages/bundle.ts) takes no options here and reports no mismatch.
    root = hydrateRoot(element, tree, {
      onRecoverableError: (error) => console.warn('docsgen: an island did not match its server markup and was rendered again in the browser.', error),
    });
  } else {
    root = createRoot(element);
    root.render(tree);
  }
  return () => root.unmount();
}

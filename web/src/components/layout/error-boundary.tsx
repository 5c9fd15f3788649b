import { Component, type ErrorInfo, type ReactNode } from 'react';
import { CrashFallback } from './crash-fallback.tsx';

interface ErrorBoundaryProps {
  children: ReactNode;
  /** When this value changes (e.g. the path), a shown fallback gives way to the children again. */
  resetKey?: unknown;
  /** Runs before the children are tried again (Try Again or a resetKey change). */
  onReset?: () => void;
  /** What shows instead of the children after a failure (default: the crash fallback alone). */
  fallback?: (retry: () => void) => ReactNode;
}

interface ErrorBoundaryState {
  failed: boolean;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false };

  static getDerivedStateFromError(): ErrorBoundaryState {
    return { failed: true };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    // Kept visible for whoever debugs a report; there is no error-reporting service to send it to yet.
    console.error('Render failed:', error, info.componentStack);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.reset();
  }

  reset = (): void => {
    this.props.onReset?.();
    this.setState({ failed: false });
  };

  override render(): ReactNode {
    if (this.state.failed) return this.props.fallback?.(this.reset) ?? <CrashFallback onRetry={this.reset} />;
    return this.props.children;
  }
}

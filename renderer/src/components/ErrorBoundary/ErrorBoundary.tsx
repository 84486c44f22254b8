import { Component } from 'react';
import type { ErrorInfo, ReactNode } from 'react';

/**
 * Keeps a failure while drawing one view from blanking the whole window: the view says what went
 * wrong and offers to draw it again; the sidebar, search and the other views keep working.
 * Remounted (and so reset) whenever the view changes (give it a `key`).
 */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error): { error: Error } {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('tunebook: a view failed to draw', error, info.componentStack);
  }

  override render(): ReactNode {
    if (!this.state.error) return this.props.children;
    return (
      <div className="view" role="alert">
        <h1>This view could not be shown</h1>
        <p className="error-text">{this.state.error.message}</p>
        <p><button type="button" className="btn" onClick={() => this.setState({ error: null })}>Try again</button></p>
      </div>
    );
  }
}

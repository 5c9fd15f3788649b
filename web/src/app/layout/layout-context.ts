import { useOutletContext } from 'react-router';

/** What the root layout offers its pages through the router outlet. */
export interface LayoutContext {
  /** Opens the sign-in dialog (for actions a visitor must sign in for, such as voting). */
  openSignIn: () => void;
}

export function useLayoutContext(): LayoutContext {
  return useOutletContext<LayoutContext>();
}

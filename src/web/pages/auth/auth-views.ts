/** The sub-views of /auth, each with its address, title and introduction. */
/** The sub-views of /auth. */
export type TView = 'login' | 'register' | 'forgot_password' | 'reset_password' | 'break_glass';
export type TFormView = 'login' | 'register';

const REGISTER_MODES = new Set(['community', 'register']);
const QUERY_VIEWS = new Set<string>(['forgot_password', 'reset_password', 'break_glass']);

export function readView(searchParams: URLSearchParams): TView {
  if (REGISTER_MODES.has(searchParams.get('mode') ?? '')) return 'register';
  const view = searchParams.get('view') ?? '';
  return QUERY_VIEWS.has(view) ? (view as TView) : 'login';
}

export function searchFor(view: TView): Record<string, string> {
  if (view === 'login') return {};
  if (view === 'register') return { mode: 'register' };
  return { view };
}

/**
 * The emailed reset link carries the email and code in the fragment, which the
 * browser never sends to the server: `/auth?view=reset_password#email=…&code=…`.
 */
export function readResetLink(hash: string): { email?: string; code?: string } {
  const fragment = new URLSearchParams(hash.replace(/^#/, ''));
  const email = fragment.get('email') ?? undefined;
  const code = fragment.get('code') ?? undefined;
  return email || code ? { email, code } : {};
}

/**
 * A printed Memento card's QR code opens `/auth#email=…&code=…` (the fragment never reaches the
 * server): the recipient's sign-in form, filled in. Only on the sign-in view: a reset link
 * carries `?view=reset_password`.
 */
export function readCardLink(hash: string, search: string): { email: string; code: string } | null {
  if (readView(new URLSearchParams(search)) !== 'login') return null;
  const { email, code } = readResetLink(hash);
  // A care home's letter carries the code alone: the family types their own email.
  return code ? { email: email ?? '', code } : null;
}

export const VIEW_TEXT: Record<TView, { title: string; intro: string }> = {
  login: { title: 'Sign In', intro: 'Welcome back. Choose how you sign in.' },
  register: {
    title: 'Create Your Account',
    intro: 'Memento Community Edition is free. Your videos stay on this device.',
  },
  forgot_password: {
    title: 'Forgot Your Password?',
    intro:
      'Enter the email address of your account and we will send you a code to choose a new password.',
  },
  reset_password: {
    title: 'Reset Your Password',
    intro: 'Enter the code from our email and choose a new password.',
  },
  break_glass: {
    title: 'Emergency Access',
    intro:
      'If someone you care about chose you as their next of kin, you can set a new password for their Memento account here.',
  },
};

export interface TNotice {
  view: TView;
  variant: 'success' | 'info';
  title: string;
  message: string;
}

/** Back from a provider (`?signIn=continue`): the sign-in is finished there, or says why not. */
export function isContinuingSignIn(view: TView, searchParams: URLSearchParams): boolean {
  return view === 'login' && searchParams.get('signIn') === 'continue';
}

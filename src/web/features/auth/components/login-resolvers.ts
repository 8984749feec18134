import { zodResolver } from '@hookform/resolvers/zod';
import { ZAccessCodeLoginForm, ZLoginForm } from '@shared/schemas/auth';

/** The sign-in forms' checks, in their own chunk with zod (login-form.tsx loads them). */
export const passwordLoginResolver = zodResolver(ZLoginForm);
export const accessCodeLoginResolver = zodResolver(ZAccessCodeLoginForm);

import { isApiError } from '@web/lib/api-client';

/** True when the error is about this device's binding, so the panel offers the reset. */
export function isDeviceBindingError(error: Error | null, view: 'login' | 'register'): boolean {
  if (!error) return false;
  if (view === 'login')
    return (
      isApiError(error, 'NOT_PRIMARY_DEVICE') || isApiError(error, 'DEVICE_HAS_PRIMARY_ACCOUNT')
    );
  return isApiError(error, 'DEVICE_HAS_PRIMARY_ACCOUNT');
}

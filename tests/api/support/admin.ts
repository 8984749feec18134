import { Secret, TOTP } from 'otpauth';
import { expect } from 'vitest';
import type { TestDevice } from '../../setup/app';

/** The code an authenticator app shows now for this secret. */
export function totpCode(secret: string): string {
  return new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30 }).generate();
}

/**
 * An admin's second factor, enrolled and confirmed through the real routes, as the admin's
 * steps that change accounts require: the secret, for the codes of later steps.
 */
export async function enrolSecondFactor(admin: TestDevice): Promise<string> {
  const { secret } = (await admin.post('/api/admin/2fa/enrol')).json<{ secret: string }>();
  expect((await admin.post('/api/admin/2fa/confirm', { code: totpCode(secret) })).statusCode).toBe(
    200,
  );
  return secret;
}

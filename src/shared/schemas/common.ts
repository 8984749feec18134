import { z } from 'zod';
import { ONE_TIME_CODE_LENGTH, isWellFormedCode } from '../domain/codes';
import { PASSWORD_MESSAGES, PASSWORD_REQUIREMENTS, isCommonPassword } from '../domain/passwords';
import { DEVICE_ID_PATTERN } from '../domain/device';
import { MESSAGES } from '../domain/errors';
import { ADMIN_MESSAGES } from '../domain/admin-messages';

/** Lowercased and trimmed before it is checked, so 'Ann@X.test ' and 'ann@x.test' are one. */
export const ZEmail = z
  .string({ error: 'Email is required' })
  .trim()
  .toLowerCase()
  .min(1, 'Email is required')
  .max(254, 'Email address is too long')
  .pipe(z.email({ error: 'Please enter a valid email address' }));

/** Every new password, one policy wherever it is set; each unmet rule reports its own message. */
export const ZNewPassword = z
  .string({ error: 'Password is required' })
  .max(256, 'Password must be at most 256 characters')
  .superRefine((password, ctx) => {
    for (const rule of PASSWORD_REQUIREMENTS) {
      if (!rule.isMet(password)) ctx.addIssue({ code: 'custom', message: rule.message });
    }
    if (PASSWORD_REQUIREMENTS.every((rule) => rule.isMet(password)) && isCommonPassword(password)) {
      ctx.addIssue({ code: 'custom', message: PASSWORD_MESSAGES.tooCommon });
    }
  });

/**
 * A form's confirmation field repeats its new password (`password` or `newPassword`): the check
 * and the one wording, shown under the confirmation. Use as `.refine(...confirmsPassword('password'))`.
 */
export function confirmsPassword<TField extends string>(field: TField) {
  const check = (form: Record<TField | 'confirmPassword', string>) =>
    form[field] === form.confirmPassword;
  return [check, { message: PASSWORD_MESSAGES.mismatch, path: ['confirmPassword'] }] as [
    typeof check,
    { message: string; path: string[] },
  ];
}

/** The 8-character code a mail sends: a password reset, a device move. */
export const ZOneTimeCode = z
  .string({ error: 'Code is required' })
  .trim()
  .min(1, 'Code is required')
  .refine((code) => isWellFormedCode(code, ONE_TIME_CODE_LENGTH), {
    message: 'The code has 8 letters and numbers, like ABCD-EF23',
  });

/** PostgreSQL's `integer` ends here: a larger id names no row, and the database would refuse it. */
export const MAX_ID = 2_147_483_647;

/** A row's id in a JSON body: a whole number from 1 to MAX_ID; anything else gets `message`. */
export const zId = (message: string) =>
  z.number({ error: message }).int(message).positive(message).max(MAX_ID, message);

/** A row's id from an address or a query string, where it arrives as text. */
export const zIdFromText = (message: string) =>
  z.coerce.number({ error: message }).int(message).positive(message).max(MAX_ID, message);

/** A user's id from an address or a query string: anything else names nobody. */
export const ZUserId = zIdFromText(ADMIN_MESSAGES.userNotFound);

export const ZDeviceId = z
  .string({ error: MESSAGES.deviceInitRequired })
  .regex(DEVICE_ID_PATTERN, MESSAGES.deviceInitRequired);

/**
 * Line breaks and invisible control characters (C0, DEL, C1, Unicode line and paragraph
 * separators) have no place in a name or a title: in a mail's plain text they could fake a
 * header line.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;
export const SINGLE_LINE_MESSAGE = 'Please use one line without hidden characters.';

export const isSingleLine = (value: string) => !CONTROL_CHARACTERS.test(value);

/** A one-line text field: trimmed, then refused if it holds a line break or control character. */
export const singleLineText = (max: number, tooLong = `Must be at most ${max} characters`) =>
  z.string().trim().max(max, tooLong).refine(isSingleLine, { message: SINGLE_LINE_MESSAGE });

export const requiredText = (message: string, max = 100) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, `Must be at most ${max} characters`)
    .refine(isSingleLine, { message: SINGLE_LINE_MESSAGE });

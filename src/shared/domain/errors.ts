/**
 * Stable error codes the client branches on. The human message travels beside the code; the
 * client never branches on wording.
 */
export const ERROR_CODES = [
  'VALIDATION',
  'UNSUPPORTED_MEDIA_TYPE',
  'PAYLOAD_TOO_LARGE',
  'ORIGIN_MISMATCH',
  'DEVICE_REQUIRED',
  'DEVICE_NOT_FOUND',
  'NOT_PRIMARY_DEVICE',
  'DEVICE_HAS_PRIMARY_ACCOUNT',
  'RESET_NEEDS_OWNER',
  'INVALID_CREDENTIALS',
  'INVALID_CODE',
  // A code's proof matched no sealed card, but the email has a code the server made: the browser
  // sends the typed code instead.
  'CODE_NEEDED',
  // A password's proof was sent for an account that keeps its password plain: the browser sends
  // the password itself (never for an account with enhanced encryption on).
  'PASSWORD_NEEDED',
  'USERNAME_TAKEN',
  'EMAIL_TAKEN',
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'RATE_LIMITED',
  // Wrong tries by others slow this account on new devices; the client offers the way past.
  'ACCOUNT_DELAYED',
  'UPGRADE_REQUIRED',
  'STORAGE_FULL',
  'LAST_NEXT_OF_KIN',
  'SECOND_FACTOR_REQUIRED',
  'HAS_DEPENDENTS',
  'LAST_ADMIN',
  'CONFLICT',
  'SIGN_IN_EXPIRED',
  'LAST_SIGN_IN_METHOD',
  'MAIL_FAILED',
  'BILLING_DISABLED',
  'SERVICE_UNAVAILABLE',
  'DISK_FULL',
  'INTERNAL',
] as const;
export type TErrorCode = (typeof ERROR_CODES)[number];

export interface TErrorBody {
  code: TErrorCode;
  message: string;
  /** Per-field messages for VALIDATION errors, keyed by field name. */
  fields?: Record<string, string>;
}

/** The product's own messages, word for word where the product gives them. */
export const MESSAGES = {
  deviceRequired: 'Device ID is required',
  deviceNotFound: 'Device ID not found',
  deviceInitRequired: 'Device initialization required. Please refresh the page and try again.',
  invalidCredentials: 'Invalid username or password',
  /** 401 PASSWORD_NEEDED: this account keeps its password plain; send it as typed. */
  passwordNeeded: 'Please send the password as typed for this account.',
  /** A plain new password for an account with enhanced encryption on (an old page still open). */
  passwordMustBeSplit:
    'With enhanced encryption on, your password is protected on your device first. Please reload Memento and try again.',
  notPrimaryDevice:
    'This account can only be used on its primary device. Please sign in on the device where the account was created.',
  deviceHasPrimaryAccount:
    'This device is already registered to a primary user account. Reset the device association to register a new account here.',
  resetNeedsOwner:
    'Only the account registered on this device can reset it. Sign in as that account, enter its password, or use the emergency reset.',
  usernameTaken: 'That username is already taken. Please choose another.',
  emailTaken:
    'An account with this email address already exists. Please sign in, or use a different email address.',
  unauthenticated: 'Please sign in to continue.',
  tosRequired: 'Terms of Service must be accepted',
  loginRateLimited: 'Too many sign-in attempts. Please wait 15 minutes and try again.',
  registerRateLimited: 'Too many registrations from this network. Please try again in an hour.',
  deviceRateLimited: 'Too many new devices from this network. Please try again later.',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  originMismatch: 'This request came from another website and was refused.',
  /** The page itself came from this server under another name than the one it was set up for. */
  otherAddress: (publicAddress: string) =>
    `This Memento is set up to be opened at ${publicAddress}. Please open it there.`,
  unsupportedMediaType: 'Please send the request as JSON.',
  payloadTooLarge: 'The request is too large.',
  notFound: 'Not found',
  internal: 'Something went wrong on our side. Please try again.',
  valueRefused: 'Some of what was sent cannot be saved. Please check it and try again.',
  diskFull:
    'The server’s disk is full, so nothing was saved. Please tell the person who looks after Memento. Anything recorded is still safe on this device.',
  databaseUnavailable:
    'Memento cannot reach its database just now, so nothing was changed. Please try again in a minute.',
  primaryOnlyRecipients: 'Only primary users can manage recipients.',
  primaryOnlyAuditLogs: 'Only primary users can see security audit logs.',
  nextOfKinRequired: 'Please add your next of kin before completing setup.',
  breakGlassInvalid:
    'The email address or emergency code is not right. Please check them and try again.',
  breakGlassRateLimited:
    'Too many emergency access attempts. Please wait 15 minutes and try again.',
  breakGlassSessionTooOld:
    'For your safety, please sign in again with your access code, then try within 15 minutes.',
  resetInstructionsSent:
    'If an account uses that email address, we have sent it a reset code. It works for 30 minutes.',
  resetCodeInvalid:
    'This reset code is not right or has expired. Please check it, or ask for a new one.',
  resetRateLimited: 'Too many attempts. Please wait 15 minutes and try again.',
  resetRequestsUsed:
    'We have already sent several reset codes to this address in the last 15 minutes. Each of them works for 30 minutes: please look for the newest one in your email, including the spam folder.',
  currentPasswordWrong: 'Your current password is not right.',
  passwordAlreadySet: 'Your password is already set.',
  deviceMoveNotNeeded: 'This device is already the primary device for your account.',
  primaryOnlyRecord: 'Access Denied - Only primary users can record video messages.',
  recipientNotFound: 'Recipient not found',
  lastNextOfKin: 'Add another next of kin first',
  accessCodeInvalid:
    'The email address or access code is not right. Please check them and try again.',
  recipientsOnly: 'This page is for people who receive messages.',
  deviceMoveCodeInvalid:
    'This code is not right or has expired. Please check it, or ask for a new one.',
  letterCodeExpired:
    'The code on your letter has expired because it was not used in time. Please ask the care home for a new letter.',
  letterCodeUnused:
    'Please sign in with the code from your letter first. Emergency access works once you have joined.',
} as const;

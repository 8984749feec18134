// The admin's plain messages, apart from the schemas: the app's first screen shows one (the
// admins-only notice) without loading the validation library.
/** The product's own messages for the admin forms, word for word. */
export const ADMIN_MESSAGES = {
  adminsOnly: 'Only administrators can access the admin dashboard.',
  fillAllFields: 'Please fill in all fields before saving',
  passwordAndReason: 'New password and reason are required',
  enterEmail: 'Please enter an email address',
  confirmDeleteUser: 'Are you sure you want to delete this user?',
  secondFactorRequired: 'Please confirm your identity with your authenticator app first.',
  secondFactorInvalid: 'That code is not right. Please check your authenticator app and try again.',
  secondFactorRateLimited: 'Too many codes tried. Please wait 15 minutes and try again.',
  lastAdmin: 'There must always be at least one admin.',
  demoteFirst: 'Remove admin rights from this user before deleting them.',
  userNotFound: 'User not found',
  vipHoldsPlan:
    'This account is VIP, and VIP holds its plan. Turn VIP off in Manage Tier first, then return it to billing.',
  deviceNotFound: 'Device association not found',
} as const;

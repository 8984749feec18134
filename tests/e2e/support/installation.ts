/** How the browser tests' server is configured (playwright.config.ts passes these on). */

/** The one account that server makes an admin (its ADMIN_EMAIL). */
export const E2E_ADMIN_EMAIL = 'admin@memento-e2e.test';
/** The About page's external buttons, as an installation configures them. */
export const E2E_DONATION_URL = 'https://donate.example.org/memento';
export const E2E_SOURCE_CODE_URL = 'https://code.example.org/memento';

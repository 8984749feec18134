export { formatBillingDate, FREE_PLAN_CHANGES } from './billing-wording';

export { RECIPIENTS_QUERY_KEY } from './onboarding-api';

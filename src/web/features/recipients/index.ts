export { RECIPIENTS_QUERY_KEY, useRecipients } from './recipients-api';

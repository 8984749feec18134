export { cacheDeviceStatus, cacheUser, toClientDeviceStatus, USER_QUERY_KEY } from './auth-api';
export { useAuth } from './auth-provider';
export { TermsOfServiceDialog } from './components/terms-of-service-dialog';

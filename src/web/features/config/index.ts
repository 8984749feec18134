export { useAppConfig } from './config-api';

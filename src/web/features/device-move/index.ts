export { type TMoveCredentials } from './device-move-api';

export { useDeviceId, useDeviceIdIfReady } from './device-provider';

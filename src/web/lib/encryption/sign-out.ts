// Sign-out's own way into the key store, which it imports only when someone signs out: the app
// does not load the store at its start. Pages and the cloud sync import device-keys directly.
export { forgetAccountKeys } from './device-keys';

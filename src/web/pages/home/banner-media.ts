/** The welcome banner's files; the poster is also asked for at start-up (main.tsx). */
export { BANNER_POSTER } from '@shared/domain/first-paint';

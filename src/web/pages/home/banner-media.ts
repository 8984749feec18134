/** The welcome banner's files; the poster is also asked for at start-up (main.tsx). */
export const BANNER_POSTER = '/media/banner-poster.jpg';

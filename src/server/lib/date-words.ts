/** A day as mail and billing notes write it, e.g. '3 March 2026', in UTC. */
export const dayOf = (date: Date) =>
  date.toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  });

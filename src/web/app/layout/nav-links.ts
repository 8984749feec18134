export interface TNavLink {
  to: string;
  label: string;
}

/** SPEC §2 header links, in order. */
export const NAV_LINKS: readonly TNavLink[] = [
  { to: '/', label: 'Home' },
  { to: '/features', label: 'Features & Pricing' },
  { to: '/about', label: 'About' },
  { to: '/support', label: 'Counselling & Support' },
  { to: '/faq', label: 'FAQ' },
];

export const ADMIN_LINK: TNavLink = { to: '/admin', label: 'Admin Panel' };

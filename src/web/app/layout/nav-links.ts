export interface TNavLink {
  to: string;
  label: string;
}

/** The header's links, in the product's order. */
export const NAV_LINKS: readonly TNavLink[] = [
  { to: '/', label: 'Home' },
  { to: '/features', label: 'Features & Pricing' },
  { to: '/about', label: 'About' },
  { to: '/support', label: 'Counselling & Support' },
  { to: '/faq', label: 'FAQ' },
];

export const ADMIN_LINK: TNavLink = { to: '/admin', label: 'Admin Panel' };

/** Only in the mobile menu, for primary-device users on a paid tier that syncs. */
export const IMPORT_FROM_MOBILE_LINK: TNavLink = {
  to: '/import-from-mobile',
  label: 'Import from Mobile',
};

/** The owner's legacy release page, beside the other pages only an owner has. */
export const LEGACY_LINK: TNavLink = { to: '/legacy', label: 'Legacy release' };

import { createContext, useContext } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { CONFIG_ELEMENT_ID } from '@shared/domain/first-paint';
import type { TPublicConfig } from '@shared/schemas/config';
import { USER_QUERY_KEY } from '@web/lib/auth-api';
import { CONFIG_QUERY_KEY } from '@web/lib/app-config';

/**
 * A first screen prerendered at build time for a visitor
 * (docs/decisions/030-first-page.md). The server sends it only to a
 * request without a session cookie, so the page knows two things before any request: nobody is
 * signed in, and this installation's public config (written into the page by the server).
 */
export interface TPrerenderedPage {
  /** The page rendered, which may differ from the address asked for (`/` shows sign-in). */
  path: string;
  config: TPublicConfig;
}

/** On the root element of a rendered page: which page it holds. */
export const PRERENDERED_PAGE_ATTRIBUTE = 'data-prerendered-page';

/** The prerendered page this visit arrived with, or null for the plain app shell. */
export function readPrerenderedPage(root: HTMLElement): TPrerenderedPage | null {
  const path = root.getAttribute(PRERENDERED_PAGE_ATTRIBUTE);
  const configText = document.getElementById(CONFIG_ELEMENT_ID)?.textContent;
  if (!path || !configText || !root.firstElementChild) return null;
  try {
    return { path, config: JSON.parse(configText) as TPublicConfig };
  } catch {
    return null;
  }
}

/** What the prerendered page already answers, so the first render needs no request. */
export function seedPrerenderedQueries(queryClient: QueryClient, page: TPrerenderedPage): void {
  queryClient.setQueryData(CONFIG_QUERY_KEY, page.config);
  queryClient.setQueryData(USER_QUERY_KEY, null);
}

/** The path of the page this visit arrived rendered, or null (AppProviders provides it). */
export const RenderedPageContext = createContext<string | null>(null);

/**
 * Whether `pathname` is the page this visit arrived rendered. React hydrates what a Suspense
 * boundary holds only after the rest has been adopted and its effects have run; an update from
 * one of them (the device registering) then made React adopt the whole page in one long,
 * uninterruptible step. Without the boundary, the page is adopted in the same small slices as
 * everything around it.
 */
export function useIsRenderedPage(pathname: string): boolean {
  return useContext(RenderedPageContext) === pathname;
}

/**
 * Whether this visit arrived as a page rendered at build time: its first screen, the cookie
 * banner too, was painted by the HTML before any script ran.
 */
export function useIsPrerenderedVisit(): boolean {
  return useContext(RenderedPageContext) !== null;
}

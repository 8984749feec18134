import { useSyncExternalStore } from 'react';
import { TIERS, type TTier } from '@shared/domain/enums';
import { readJson, writeJson } from './browser-storage';

/**
 * A signed-in user's plan choice is remembered. It is kept in this browser only; choosing charges
 * nothing and leaves the server's tier alone. With billing on, /premium marks the chosen plan.
 */
const CHOSEN_PLAN_KEY = 'chosenPlan';

export interface TPlanChoice {
  userId: number;
  tier: TTier;
  chosenAt: string;
}

const listeners = new Set<() => void>();
let cached: TPlanChoice | null | undefined;

function isPlanChoice(value: unknown): value is TPlanChoice {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.userId === 'number' &&
    typeof record.tier === 'string' &&
    (TIERS as readonly string[]).includes(record.tier) &&
    typeof record.chosenAt === 'string'
  );
}

function readChoice(): TPlanChoice | null {
  if (cached === undefined) {
    const stored = readJson<unknown>(CHOSEN_PLAN_KEY);
    cached = isPlanChoice(stored) ? stored : null;
  }
  return cached;
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function rememberPlanChoice(userId: number, tier: TTier): void {
  cached = { userId, tier, chosenAt: new Date().toISOString() };
  writeJson(CHOSEN_PLAN_KEY, cached);
  for (const listener of listeners) listener();
}

/** The plan this user last chose in this browser, or null. */
export function usePlanChoice(userId: number | undefined): TPlanChoice | null {
  const choice = useSyncExternalStore(subscribe, readChoice, () => null);
  return choice && choice.userId === userId ? choice : null;
}

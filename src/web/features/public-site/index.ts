export { ComingSoon, CurrentPlanMark, PlanSummary } from './plan-card';
export { rememberPlanChoice, usePlanChoice } from './plan-choice';
export { OrganisationExtras, PlanFeatureList, StatusBadge } from './feature-status';

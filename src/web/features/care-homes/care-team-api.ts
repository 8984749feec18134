import { useQuery } from '@tanstack/react-query';
import type { TCareTeamMine, TCareTeamShared } from '@shared/schemas/care-team';
import { apiRequest } from '@web/lib/api-client';

/** "Share with the care team": the resident's side and the home's. */

export const CARE_TEAM_MINE_KEY = ['/api/care-home/care-team/mine'] as const;
export const CARE_TEAM_SHARED_KEY = ['/api/care-home/care-team/shared'] as const;

/** The resident's home, whether they may share from here, and what they share now. */
export function useMyCareTeam(isEnabled = true) {
  return useQuery<TCareTeamMine>({ queryKey: CARE_TEAM_MINE_KEY, enabled: isEnabled });
}

/** What residents share with this person's care team; refused (so not shown) for anyone else. */
export function useSharedWithCareTeam() {
  return useQuery<TCareTeamShared>({ queryKey: CARE_TEAM_SHARED_KEY, retry: false });
}

export function shareWithCareTeam(videoId: string): Promise<{ shared: true }> {
  return apiRequest(`/api/care-home/care-team/shares/${videoId}`, { method: 'PUT' });
}

export function stopSharingWithCareTeam(videoId: string): Promise<void> {
  return apiRequest(`/api/care-home/care-team/shares/${videoId}`, { method: 'DELETE' });
}

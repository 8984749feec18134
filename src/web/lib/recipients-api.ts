import { useQuery } from '@tanstack/react-query';
import type {
  TCreateRecipientBody,
  TPrompt,
  TRecipientCreated,
  TRecipientDeleted,
  TRecipientHome,
  TRecipientList,
  TReshareCode,
} from '@shared/schemas/recipients';
import { apiRequest } from './api-client';

export const RECIPIENTS_QUERY_KEY = ['/api/recipients'] as const;

/** GET /api/recipients: only fetched for a primary user, the only one who has recipients. */
export function useRecipients(options: { enabled?: boolean } = {}) {
  return useQuery<TRecipientList>({
    queryKey: RECIPIENTS_QUERY_KEY,
    enabled: options.enabled ?? true,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

export function addRecipient(body: TCreateRecipientBody): Promise<TRecipientCreated> {
  return apiRequest<TRecipientCreated>('/api/recipients', { method: 'POST', body });
}

export function deleteRecipient(id: number): Promise<TRecipientDeleted> {
  return apiRequest<TRecipientDeleted>(`/api/recipients/${id}`, { method: 'DELETE' });
}

export function reshareCode(id: number): Promise<TReshareCode> {
  return apiRequest<TReshareCode>(`/api/recipients/${id}/reshare-code`, { method: 'POST' });
}

export const promptsQueryKey = (recipientId: number) =>
  [`/api/prompts?recipientId=${recipientId}`] as const;

/** GET /api/prompts?recipientId=: the prompt catalogue for that recipient's category. */
export function usePrompts(recipientId: number | null) {
  return useQuery<TPrompt[]>({
    queryKey: promptsQueryKey(recipientId ?? 0),
    enabled: recipientId !== null,
  });
}

/** GET /api/recipient-home: what a signed-in recipient sees. */
export function useRecipientHome(options: { enabled?: boolean } = {}) {
  return useQuery<TRecipientHome>({
    queryKey: ['/api/recipient-home'],
    enabled: options.enabled ?? true,
    staleTime: 0,
    refetchOnMount: 'always',
  });
}

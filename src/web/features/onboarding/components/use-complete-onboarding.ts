import { useRef } from 'react';
import type { UseFormSetError } from 'react-hook-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TCreateRecipientBody, TRecipientCreated } from '@shared/schemas/recipients';
import { toast } from '@web/components/ui/use-toast';
import { isApiError } from '@web/lib/api-client';
import { cacheUser, USER_QUERY_KEY } from '@web/lib/auth-api';
import { useAuth } from '@web/lib/auth-provider';
import { cardForNewRecipient } from '@web/lib/encryption/owner-cards';
import { RECIPIENTS_QUERY_KEY } from '@web/lib/recipients-api';
import { completeOnboarding, createRecipient } from '../onboarding-api';
import { isNextOfKinField, ONBOARDING_TEXT } from './onboarding-steps';

/** The saved next of kin and their code; `isCard` when it was made here (never emailed). */
export type TOnboardedNextOfKin = TRecipientCreated & {
  emergencyAccessCode: string;
  isCard: boolean;
};

interface TCompleteOnboarding {
  onCompleted: (nextOfKin: TOnboardedNextOfKin) => void;
  setError: UseFormSetError<TCreateRecipientBody>;
  /** Back to a step: the next of kin's, when the server refused one of its fields. */
  goTo: (step: number) => void;
}

/** 'Complete Setup': saves the next of kin (once), finishes onboarding, and keeps the new user. */
export function useCompleteOnboarding({ onCompleted, setError, goTo }: TCompleteOnboarding) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  // A retry after the next of kin was saved but setup not finished reuses that answer, so the
  // next of kin is not sent a second code for the same details.
  const saved = useRef<{ key: string; recipient: TOnboardedNextOfKin } | null>(null);

  return useMutation({
    mutationFn: async (values: TCreateRecipientBody) => {
      if (!user?.id) throw new Error(ONBOARDING_TEXT.notAuthenticated);
      const body: TCreateRecipientBody = { ...values, category: 'next_of_kin' };
      const key = JSON.stringify(body);
      let recipient = saved.current?.key === key ? saved.current.recipient : null;
      if (!recipient) {
        // With enhanced encryption on, the code is made here and only its proof is sent.
        const card = await cardForNewRecipient(user.id, body.email, { isNextOfKin: true });
        const created = await createRecipient(card ? { ...body, sealedCard: card.card } : body);
        const code = card?.code ?? created.emergencyAccessCode ?? '';
        recipient = { ...created, emergencyAccessCode: code, isCard: card !== null };
        saved.current = { key, recipient };
      }
      const result = await completeOnboarding();
      if (!result?.ok) throw new Error(ONBOARDING_TEXT.failed);
      return { recipient, user: result.user };
    },
    onSuccess: ({ recipient, user: updated }) => {
      onCompleted(recipient);
      queryClient.setQueryData(USER_QUERY_KEY, updated);
      cacheUser(updated);
      void queryClient.invalidateQueries({ queryKey: RECIPIENTS_QUERY_KEY });
    },
    onError: (error) => {
      let description = error.message || ONBOARDING_TEXT.failed;
      if (isApiError(error, 'UNAUTHENTICATED')) description = ONBOARDING_TEXT.notAuthenticated;
      if (isApiError(error) && error.fields) {
        let hasFieldError = false;
        for (const [field, message] of Object.entries(error.fields)) {
          if (!isNextOfKinField(field)) continue;
          setError(field, { message });
          hasFieldError = true;
        }
        if (hasFieldError) goTo(1);
      }
      toast({ variant: 'destructive', title: 'Error', description });
    },
  });
}

import { useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { TStaffMember } from '@shared/schemas/care-homes';
import { FormErrorAlert } from '@web/components/form-parts';
import { Button } from '@web/components/ui/button';
import { Card, CardContent } from '@web/components/ui/card';
import { FormField } from '@web/components/ui/form-field';
import { toast } from '@web/components/ui/use-toast';
import {
  disableStaff,
  inviteStaff,
  STAFF_KEY,
  useStaff,
} from '@web/features/care-homes/care-homes-api';
import { describeError } from '@web/lib/api-client';
import { SectionHeading } from './section-heading';

const STATE_WORDS: Record<TStaffMember['state'], string> = {
  invited: 'Invited',
  invite_expired: 'Invitation expired',
  active: 'Active',
  disabled: 'Disabled',
};

/** Staff: invited by email, each with their own sign-in; disabled when they leave. */
export function StaffSection() {
  const queryClient = useQueryClient();
  const { data: staff } = useStaff(true);
  const [form, setForm] = useState({ firstName: '', lastName: '', email: '' });
  const [error, setError] = useState<string | null>(null);
  const [isSending, setIsSending] = useState(false);

  async function onInvite(event: FormEvent) {
    event.preventDefault();
    setIsSending(true);
    setError(null);
    try {
      const member = await inviteStaff(form);
      setForm({ firstName: '', lastName: '', email: '' });
      toast({ title: `Invitation sent to ${member.firstName} ${member.lastName}` });
      await queryClient.invalidateQueries({ queryKey: STAFF_KEY });
    } catch (caught) {
      setError(describeError(caught, 'Please try again.'));
    } finally {
      setIsSending(false);
    }
  }

  async function onDisable(member: TStaffMember) {
    try {
      await disableStaff(member.id);
      toast({ title: `${member.firstName} ${member.lastName} is disabled` });
      await queryClient.invalidateQueries({ queryKey: STAFF_KEY });
    } catch (caught) {
      setError(describeError(caught, 'Please try again.'));
    }
  }

  return (
    <Card asChild>
      <section aria-labelledby="staff-heading">
        <SectionHeading id="staff-heading" title="Staff">
          Each member of staff gets an emailed invitation (it works for 7 days) and signs in with
          their own account. Disable someone when they leave.
        </SectionHeading>
        <CardContent className="flex flex-col gap-6">
          {staff && staff.length > 0 && (
            <ul className="flex flex-col gap-3" aria-label="Staff members">
              {staff.map((member) => (
                <li
                  key={member.id}
                  className="flex flex-col gap-2 rounded-lg border-2 border-border p-4 sm:flex-row sm:items-center sm:justify-between"
                >
                  <div>
                    <p className="text-base font-semibold">
                      {member.firstName} {member.lastName}
                    </p>
                    <p className="text-base break-all text-muted-foreground">
                      {member.email} · {STATE_WORDS[member.state]}
                    </p>
                  </div>
                  {member.state !== 'disabled' && (
                    <Button
                      variant="ghost-destructive"
                      onClick={() => void onDisable(member)}
                      aria-label={`Disable ${member.firstName} ${member.lastName}`}
                    >
                      Disable
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )}
          <form className="flex flex-col gap-4" onSubmit={onInvite} noValidate>
            <h3 className="text-lg font-bold">Invite a member of staff</h3>
            {error && <FormErrorAlert title="The invitation could not be sent" message={error} />}
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField
                label="First name"
                isRequired
                value={form.firstName}
                onChange={(event) => setForm({ ...form, firstName: event.target.value })}
              />
              <FormField
                label="Last name"
                isRequired
                value={form.lastName}
                onChange={(event) => setForm({ ...form, lastName: event.target.value })}
              />
            </div>
            <FormField
              label="Email"
              type="email"
              isRequired
              value={form.email}
              onChange={(event) => setForm({ ...form, email: event.target.value })}
            />
            <Button type="submit" className="self-start" disabled={isSending}>
              {isSending ? 'Sending…' : 'Send invitation'}
            </Button>
          </form>
        </CardContent>
      </section>
    </Card>
  );
}

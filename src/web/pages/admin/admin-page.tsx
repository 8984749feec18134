import { useSearchParams } from 'react-router';
import { LifeBuoy, Mail, MonitorSmartphone, Users } from 'lucide-react';
import { BackHomeLink } from '@web/components/back-home-link';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@web/components/ui/tabs';
import { DevicesTab } from '@web/features/admin/components/devices-tab';
import { EmailTab } from '@web/features/admin/components/email-tab';
import { SecondFactorGate } from '@web/features/admin/components/second-factor-gate';
import { SupportTab } from './support-tab';
import { UsersTab } from '@web/features/admin/components/users-tab';
import { usePageTitle } from '@web/lib/use-page-title';

const TABS = ['users', 'devices', 'email', 'support'] as const;
type TTab = (typeof TABS)[number];

function isTab(value: string | null): value is TTab {
  return TABS.includes(value as TTab);
}

function TabHeading({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="flex flex-col gap-1">
      <h2 className="text-2xl font-bold tracking-tight">{title}</h2>
      <p className="text-lg text-muted-foreground">{children}</p>
    </div>
  );
}

/** The admin dashboard: Users, Device Associations and Email Verification Tools. */
function AdminTabs() {
  const [params, setParams] = useSearchParams();
  const requested = params.get('tab');
  const tab: TTab = isTab(requested) ? requested : 'users';

  return (
    <Tabs
      value={tab}
      onValueChange={(next) => setParams(next === 'users' ? {} : { tab: next }, { replace: true })}
      className="flex flex-col gap-6"
    >
      <TabsList aria-label="Admin sections">
        <TabsTrigger value="users">
          <Users aria-hidden="true" />
          Users
        </TabsTrigger>
        <TabsTrigger value="devices">
          <MonitorSmartphone aria-hidden="true" />
          Devices
        </TabsTrigger>
        <TabsTrigger value="email">
          <Mail aria-hidden="true" />
          Email
        </TabsTrigger>
        <TabsTrigger value="support">
          <LifeBuoy aria-hidden="true" />
          Support
        </TabsTrigger>
      </TabsList>
      <TabsContent value="users">
        <TabHeading title="Users">
          Every account on this installation. Change a plan, reset a password or remove an account.
        </TabHeading>
        <UsersTab />
      </TabsContent>
      <TabsContent value="devices">
        <TabHeading title="Device Associations">
          Which device each account is bound to. Removing an association makes that person sign in
          again on the device.
        </TabHeading>
        <DevicesTab />
      </TabsContent>
      <TabsContent value="email">
        <TabHeading title="Email Verification Tools">
          Check that messages from Memento reach the people they are meant for.
        </TabHeading>
        <EmailTab />
      </TabsContent>
      <TabsContent value="support">
        <TabHeading title="Support">
          Care homes&rsquo; requests for help: open ones first, Professional homes first, then the
          earliest due. Answer by email, then mark the request answered.
        </TabHeading>
        <SupportTab />
      </TabsContent>
    </Tabs>
  );
}

export default function AdminPage() {
  usePageTitle('Admin Dashboard');
  return (
    <div className="mx-auto flex w-full max-w-6xl flex-col gap-6">
      <BackHomeLink />
      <h1 className="text-3xl font-bold tracking-tight sm:text-4xl">Admin Dashboard</h1>
      <SecondFactorGate>
        <AdminTabs />
      </SecondFactorGate>
    </div>
  );
}

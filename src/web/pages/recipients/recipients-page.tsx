import { PagePlaceholder } from '@web/components/page-placeholder';

export default function RecipientsPage() {
  return (
    <PagePlaceholder title="Recipients">
      <p>Adding and managing the people you record messages for arrives in a coming release.</p>
    </PagePlaceholder>
  );
}

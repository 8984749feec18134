import type { OutgoingMail } from '../mail/mail.repository';
import { render } from '../mail/mail-layout';
import {
  SUPPORT_CATEGORY_LABELS,
  type TSupportDiagnostics,
  type TSupportCategory,
  type TSupportUrgency,
} from '../../../shared/schemas/support';

function diagnosticsLines(diagnostics: TSupportDiagnostics | null): string[] {
  if (!diagnostics) return ['No diagnostics were attached.'];
  return [
    `Browser: ${diagnostics.browser ?? 'not given'}`,
    `App version: ${diagnostics.appVersion ?? 'not given'}`,
    `Devices: ${diagnostics.deviceCount ?? 'not given'}`,
    `Storage used: ${diagnostics.storageUsedBytes === undefined ? 'not given' : `${Math.round(diagnostics.storageUsedBytes / 1_048_576)} MB`}`,
  ];
}

/** The operators' notice of a new request; they answer the requester by email. */
export function supportRequestMail(input: {
  to: string;
  homeName: string;
  isPriority: boolean;
  requester: { name: string; email: string };
  category: TSupportCategory;
  urgency: TSupportUrgency;
  description: string;
  diagnostics: TSupportDiagnostics | null;
  dueAt: Date;
  adminUrl: string;
}): OutgoingMail {
  const tags = `${input.isPriority ? '[Priority]' : ''}${input.urgency === 'urgent' ? '[Urgent]' : ''}`;
  const label = SUPPORT_CATEGORY_LABELS[input.category];
  return render({
    to: input.to,
    subject: `${tags ? `${tags} ` : ''}${input.homeName}: ${label}`,
    greeting: 'Hello,',
    paragraphs: [
      `${input.requester.name} (${input.requester.email}) at ${input.homeName} asks for help${input.isPriority ? ' on Professional' : ''}.`,
      `About: ${label}. Urgency: ${input.urgency}. First reply due by ${input.dueAt.toISOString()}.`,
      input.description,
      diagnosticsLines(input.diagnostics).join('\n'),
      `Reply to ${input.requester.email}, then mark the request answered in the Support tab.`,
    ],
    action: { label: 'Open the Support tab', url: input.adminUrl },
  });
}

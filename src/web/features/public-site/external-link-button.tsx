import type { ReactNode } from 'react';
import { ExternalLink } from 'lucide-react';
import { Button, type ButtonProps } from '@web/components/ui/button';

interface ExternalLinkButtonProps {
  href: string;
  children: ReactNode;
  icon?: ReactNode;
  variant?: ButtonProps['variant'];
}

/** A button-styled link that opens another site in a new tab, and says so. */
export function ExternalLinkButton({
  href,
  children,
  icon,
  variant = 'default',
}: ExternalLinkButtonProps) {
  return (
    <Button asChild variant={variant} size="lg">
      <a href={href} target="_blank" rel="noopener noreferrer">
        {icon}
        {children}
        <ExternalLink aria-hidden="true" />
        <span className="sr-only">(opens in a new tab)</span>
      </a>
    </Button>
  );
}

import { useState } from 'react';
import { Copy, Download, LockKeyhole, Printer, ShieldCheck } from 'lucide-react';
import { Alert } from '@web/components/ui/alert';
import { Button } from '@web/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@web/components/ui/card';
import { CheckboxField } from '@web/components/ui/checkbox-field';
import { toast } from '@web/components/ui/use-toast';

interface RecoveryCodesPanelProps {
  codes: string[];
  onDone: () => void;
}

function codesAsText(codes: string[]): string {
  return [
    'Memento admin recovery codes',
    'Each code works once, instead of a code from your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** The ten single-use recovery codes, shown once, with ways to keep them. */
export function RecoveryCodesPanel({ codes, onDone }: RecoveryCodesPanelProps) {
  const [isSaved, setIsSaved] = useState(false);

  async function copy() {
    try {
      await navigator.clipboard.writeText(codesAsText(codes));
      toast({ variant: 'success', title: 'Recovery codes copied' });
    } catch {
      toast({
        variant: 'destructive',
        title: 'Copying did not work',
        description: 'Please download or print the codes, or write them down.',
      });
    }
  }

  function download() {
    const url = URL.createObjectURL(new Blob([codesAsText(codes)], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'memento-recovery-codes.txt';
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  return (
    <Card asChild>
      <section
        aria-labelledby="recovery-title"
        className="print-only-area w-full max-w-3xl print:border-0 print:shadow-none"
      >
        <CardHeader>
          <CardTitle id="recovery-title" className="flex items-center gap-3">
            <ShieldCheck className="size-7 shrink-0 text-success" aria-hidden="true" />
            Two-step sign-in is on: save your recovery codes
          </CardTitle>
          <CardDescription className="text-lg">
            If your phone is lost, each of these codes lets you in once instead of a code from the
            app. This is the only time they are shown.
          </CardDescription>
        </CardHeader>
        <CardContent className="flex flex-col gap-6">
          <ol
            aria-label="Recovery codes"
            className="grid gap-2 rounded-lg bg-muted p-4 font-mono text-lg font-semibold tracking-wide sm:grid-cols-2"
            data-testid="recovery-codes"
          >
            {codes.map((code) => (
              <li key={code} className="rounded-md bg-card px-3 py-2 text-center">
                {code}
              </li>
            ))}
          </ol>
          <div className="flex flex-col gap-3 sm:flex-row sm:flex-wrap print:hidden">
            <Button variant="outline" onClick={copy}>
              <Copy aria-hidden="true" />
              Copy
            </Button>
            <Button variant="outline" onClick={download}>
              <Download aria-hidden="true" />
              Download
            </Button>
            <Button variant="outline" onClick={() => window.print()}>
              <Printer aria-hidden="true" />
              Print
            </Button>
          </div>
          <Alert
            variant="warm"
            kind="note"
            title="Keep them somewhere safe"
            icon={<LockKeyhole aria-hidden="true" />}
            className="print:hidden"
          >
            <p>
              Store them like a spare key: in a password manager, or printed and locked away. Anyone
              with a code and your password can open the admin dashboard.
            </p>
          </Alert>
          <div className="flex flex-col gap-4 print:hidden">
            <CheckboxField checked={isSaved} onCheckedChange={setIsSaved}>
              I have saved these codes
            </CheckboxField>
            <div>
              <Button size="lg" onClick={onDone} disabled={!isSaved}>
                Continue to the Admin Dashboard
              </Button>
            </div>
          </div>
        </CardContent>
      </section>
    </Card>
  );
}

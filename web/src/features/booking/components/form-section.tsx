import { type ReactNode, useId } from 'react';
import { Card, CardContent, CardHeader, CardTitle } from '#web/components/ui/card.tsx';

/** A titled card of the booking form, named by its title for screen readers (a group). */
export function FormSection({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card role="group" aria-labelledby={id}>
      <CardHeader>
        <CardTitle id={id} level={2} className="text-xl">
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-4 sm:grid-cols-2">{children}</CardContent>
    </Card>
  );
}

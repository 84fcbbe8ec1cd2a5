import type { ReactNode } from 'react';
import { Card } from '~/components/ui/card';

export function AuthCard({
  title,
  description,
  children,
  wide = false,
}: {
  title: string;
  description?: string;
  children?: ReactNode;
  wide?: boolean;
}) {
  return (
    <Card className={wide ? 'w-full max-w-3xl p-6 sm:p-8' : 'w-full max-w-md p-6 sm:p-8'}>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      {description && <p className="mt-2 text-sm text-muted-foreground">{description}</p>}
      {children && <div className="mt-6">{children}</div>}
    </Card>
  );
}

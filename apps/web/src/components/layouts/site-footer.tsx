import { lazy } from 'react';
import { Prerendered } from '~/components/ui/prerendered';
import { SubscribeForm } from './subscribe-form';

const SiteFooterLinks = lazy(() => import('./site-footer-links'));

export function SiteFooter() {
  return (
    <footer className="border-t border-border bg-muted/40">
      <div className="mx-auto max-w-7xl px-4 py-12 sm:px-6 lg:px-8">
        <Prerendered content={SiteFooterLinks} />
        <div className="mt-12 flex flex-col gap-6 border-t border-border pt-8 lg:flex-row lg:items-end lg:justify-between">
          <div className="max-w-md">
            <h2 className="text-sm font-semibold">Stay updated</h2>
            <p className="mt-1 text-sm text-muted-foreground">Product news and new providers, about once a month.</p>
            <SubscribeForm />
          </div>
          <p className="text-sm text-muted-foreground">© {new Date().getFullYear()} Conductor, Inc. All rights reserved.</p>
        </div>
      </div>
    </footer>
  );
}

import { ArrowRight } from 'lucide-react';
import { lazy } from 'react';
import { Link } from 'react-router';
import { buttonClasses } from '~/components/ui/button';
import { Prerendered } from '~/components/ui/prerendered';
import { DemoDialog } from './demo-dialog';

const sections = () => import('./home-sections');
const HeroIntro = lazy(() => sections().then((module) => ({ default: module.HeroIntro })));
const HeroDetails = lazy(() => sections().then((module) => ({ default: module.HeroDetails })));
const HomeSections = lazy(() => sections().then((module) => ({ default: module.HomeSections })));

/**
 * The home page: hero, stats, six features (#features), testimonials and a closing call to
 * action. Only the hero's two actions are interactive; the rest is prerendered static content.
 */
export function HomePage() {
  return (
    <>
      <section className="relative overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 -top-48 -z-10 mx-auto h-[32rem] max-w-5xl rounded-full bg-accent opacity-70 blur-3xl"
        />
        <div className="mx-auto max-w-7xl px-4 pt-16 pb-12 text-center sm:px-6 sm:pt-24 lg:px-8">
          <Prerendered content={HeroIntro} />
          <div className="mt-10 flex flex-col items-center justify-center gap-3 sm:flex-row">
            <Link to="/register" className={buttonClasses('primary', 'lg')}>
              Start Free Trial
              <ArrowRight className="size-4" aria-hidden="true" />
            </Link>
            <DemoDialog />
          </div>
          <Prerendered content={HeroDetails} />
        </div>
      </section>
      <Prerendered content={HomeSections} />
    </>
  );
}

import { Outlet } from 'react-router';
import { MarketingShell } from '~/components/layouts/marketing-shell';

export default function MarketingLayout() {
  return (
    <MarketingShell>
      <Outlet />
    </MarketingShell>
  );
}

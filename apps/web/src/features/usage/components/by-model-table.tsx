import type { ModelUsage } from '@conductor/shared/schemas/usage';
import { ArrowDownRight, ArrowUpRight, Minus } from 'lucide-react';
import { Table, TableBody, TableHead, Td, Th } from '~/components/ui/table';
import { formatMicros, formatNumber } from '~/lib/format';

function Trend({ percent }: { percent: number | null }) {
  if (percent === null) return <span className="text-muted-foreground">New</span>;
  if (percent === 0) {
    return (
      <span className="inline-flex items-center gap-1 text-muted-foreground">
        <Minus className="size-3.5" aria-hidden="true" /> 0%
      </span>
    );
  }
  const up = percent > 0;
  const Icon = up ? ArrowUpRight : ArrowDownRight;
  return (
    <span className={`inline-flex items-center gap-1 ${up ? 'text-success' : 'text-danger'}`}>
      <Icon className="size-3.5" aria-hidden="true" />
      <span className="sr-only">{up ? 'up' : 'down'}</span>
      {Math.abs(percent).toFixed(1)}%
    </span>
  );
}

/** Usage by model for the range, with the token trend against the previous period. */
export function ByModelTable({ rows }: { rows: ModelUsage[] }) {
  return (
    <Table aria-label="Usage by model">
      <TableHead>
        <tr>
          <Th>Model</Th>
          <Th numeric>Requests</Th>
          <Th numeric>Tokens</Th>
          <Th numeric>Cost</Th>
          <Th numeric>Trend</Th>
        </tr>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <tr key={`${row.provider}/${row.model}`}>
            <Td>
              <span className="font-mono text-sm">{row.model}</span>
              <span className="block text-xs text-muted-foreground">{row.provider}</span>
            </Td>
            <Td numeric>{formatNumber(row.requests)}</Td>
            <Td numeric>{formatNumber(row.tokens)}</Td>
            <Td numeric>{formatMicros(row.costMicros)}</Td>
            <Td numeric>
              <Trend percent={row.trendPercent} />
            </Td>
          </tr>
        ))}
      </TableBody>
    </Table>
  );
}

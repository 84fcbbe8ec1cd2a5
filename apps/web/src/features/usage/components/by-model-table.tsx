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
      {/* Against a previous period with next to no usage the ratio means little: capped. */}
      {Math.abs(percent) >= 1_000 ? '>999%' : `${Math.abs(percent).toFixed(1)}%`}
    </span>
  );
}

/**
 * Usage by model for the range, with the token trend against the previous period. On a phone the
 * requests go under the provider and the trend under the tokens, so a row fits without scrolling.
 */
export function ByModelTable({ rows }: { rows: ModelUsage[] }) {
  return (
    <Table aria-label="Usage by model">
      <TableHead>
        <tr>
          <Th>Model</Th>
          <Th numeric className="hidden sm:table-cell">
            Requests
          </Th>
          <Th numeric>Tokens</Th>
          <Th numeric>Cost</Th>
          <Th numeric className="hidden sm:table-cell">
            Trend
          </Th>
        </tr>
      </TableHead>
      <TableBody>
        {rows.map((row) => (
          <tr key={`${row.provider}/${row.model}`}>
            <Td>
              <span className="font-mono text-sm">{row.model}</span>
              <span className="block text-xs text-muted-foreground">
                {row.provider}
                <span className="sm:hidden"> · {formatNumber(row.requests)} requests</span>
              </span>
            </Td>
            <Td numeric className="hidden sm:table-cell">
              {formatNumber(row.requests)}
            </Td>
            <Td numeric>
              {formatNumber(row.tokens)}
              <span className="block text-xs sm:hidden">
                <Trend percent={row.trendPercent} />
              </span>
            </Td>
            <Td numeric>{formatMicros(row.costMicros)}</Td>
            <Td numeric className="hidden sm:table-cell">
              <Trend percent={row.trendPercent} />
            </Td>
          </tr>
        ))}
      </TableBody>
    </Table>
  );
}

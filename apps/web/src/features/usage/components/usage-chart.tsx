import type { UsagePoint } from '@conductor/shared/schemas/usage';
import { Bar, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { formatCompact, formatMicros, formatNumber } from '~/lib/format';

export type ChartKind = 'requests-tokens' | 'requests' | 'tokens' | 'cost';

export interface UsageChartProps {
  series: UsagePoint[];
  granularity: 'hour' | 'day';
  kind: ChartKind;
  height?: number;
}

const AXIS = { fontSize: 12, fill: 'var(--muted-foreground)' };

function bucketLabel(bucket: string, granularity: 'hour' | 'day', long = false): string {
  if (granularity === 'hour') {
    const date = new Date(bucket);
    return long
      ? date.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' })
      : date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  }
  const date = new Date(`${bucket}T00:00:00Z`);
  return date.toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC', ...(long ? { year: 'numeric' } : {}) });
}

/** Recharts is ~100 KB: this module is only ever loaded lazily, on dashboard routes. */
export default function UsageChart({ series, granularity, kind, height = 260 }: UsageChartProps) {
  const data = series.map((point) => ({
    ...point,
    successes: point.requests - point.errors,
    label: bucketLabel(point.bucket, granularity),
    longLabel: bucketLabel(point.bucket, granularity, true),
  }));
  const showRequests = kind === 'requests-tokens' || kind === 'requests';
  const showTokens = kind === 'requests-tokens' || kind === 'tokens';
  const twoSeries = kind === 'requests-tokens' || kind === 'requests';
  return (
    <div style={{ height }} className="w-full">
      <ResponsiveContainer width="100%" height="100%">
        <ComposedChart data={data} margin={{ top: 8, right: showTokens && showRequests ? 4 : 12, bottom: 4, left: 4 }}>
          <CartesianGrid stroke="var(--border)" vertical={false} />
          <XAxis dataKey="label" tick={AXIS} tickLine={false} axisLine={{ stroke: 'var(--border)' }} minTickGap={16} />
          {showRequests && (
            <YAxis
              yAxisId="requests"
              tick={AXIS}
              tickLine={false}
              axisLine={false}
              width={48}
              allowDecimals={false}
              tickFormatter={formatCompact}
              label={{ value: 'Requests', angle: -90, position: 'insideLeft', style: { ...AXIS, textAnchor: 'middle' } }}
            />
          )}
          {showTokens && (
            <YAxis
              yAxisId="tokens"
              orientation={showRequests ? 'right' : 'left'}
              tick={AXIS}
              tickLine={false}
              axisLine={false}
              width={52}
              tickFormatter={formatCompact}
              label={{
                value: 'Tokens',
                angle: showRequests ? 90 : -90,
                position: showRequests ? 'insideRight' : 'insideLeft',
                style: { ...AXIS, textAnchor: 'middle' },
              }}
            />
          )}
          {kind === 'cost' && (
            <YAxis
              yAxisId="cost"
              tick={AXIS}
              tickLine={false}
              axisLine={false}
              width={60}
              tickFormatter={(value: number) => `$${(value / 1_000_000).toFixed(2)}`}
              label={{ value: 'Cost (USD)', angle: -90, position: 'insideLeft', style: { ...AXIS, textAnchor: 'middle' } }}
            />
          )}
          <Tooltip
            cursor={{ fill: 'var(--muted)' }}
            contentStyle={{
              background: 'var(--card)',
              border: '1px solid var(--border)',
              borderRadius: 8,
              fontSize: 12,
              color: 'var(--foreground)',
            }}
            labelFormatter={(_, payload) => String(payload?.[0]?.payload?.longLabel ?? '')}
            formatter={(value, name) => [name === 'Cost' ? formatMicros(Number(value)) : formatNumber(Number(value)), name]}
          />
          {twoSeries && <Legend wrapperStyle={{ fontSize: 12 }} />}
          {kind === 'requests' && (
            <>
              <Bar yAxisId="requests" dataKey="successes" name="Successful" stackId="r" fill="var(--primary)" isAnimationActive={false} />
              <Bar
                yAxisId="requests"
                dataKey="errors"
                name="Errors"
                stackId="r"
                fill="var(--danger)"
                radius={[3, 3, 0, 0]}
                isAnimationActive={false}
              />
            </>
          )}
          {kind === 'requests-tokens' && (
            <Bar
              yAxisId="requests"
              dataKey="requests"
              name="Requests"
              fill="var(--primary)"
              radius={[3, 3, 0, 0]}
              isAnimationActive={false}
            />
          )}
          {showTokens && (
            <Line
              yAxisId="tokens"
              type="monotone"
              dataKey="tokens"
              name="Tokens"
              stroke={kind === 'tokens' ? 'var(--primary)' : 'var(--success)'}
              strokeWidth={2}
              dot={false}
              isAnimationActive={false}
            />
          )}
          {kind === 'cost' && (
            <Bar yAxisId="cost" dataKey="costMicros" name="Cost" fill="var(--primary)" radius={[3, 3, 0, 0]} isAnimationActive={false} />
          )}
        </ComposedChart>
      </ResponsiveContainer>
    </div>
  );
}

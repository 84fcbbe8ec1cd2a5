import { Select } from '~/components/ui/select';

/** A time-range picker; `options` pairs each value with its label. */
export function RangeSelect<T extends string>({
  value,
  options,
  onChange,
  label = 'Time range',
}: {
  value: T;
  options: readonly (readonly [T, string])[];
  onChange: (value: T) => void;
  label?: string;
}) {
  return (
    <Select aria-label={label} value={value} onChange={(event) => onChange(event.target.value as T)} className="w-36">
      {options.map(([option, text]) => (
        <option key={option} value={option}>
          {text}
        </option>
      ))}
    </Select>
  );
}

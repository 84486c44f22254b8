import { useEffect, useId, useState } from 'react';
import { BYTE_UNITS, unitFactor } from '../../../../shared/format';
import type { ByteUnit } from '../../../../shared/format';
import { parseNumber, sizeForInput } from '../../lib/format';

/**
 * A size typed in the unit the user thinks in (8 GB, 7.6 GiB, 53.7 GB) and reported in bytes.
 * `label` names the number field; the unit select is labelled "<label> unit".
 */
export function ByteSizeInput({ label, value, onChange, defaultUnit = 'GB' }: {
  label: string;
  value: number | null;
  onChange: (bytes: number | null) => void;
  defaultUnit?: ByteUnit;
}) {
  const id = useId();
  const initial = value ? sizeForInput(value) : null;
  const [unit, setUnit] = useState<ByteUnit>(initial?.unit ?? defaultUnit);
  const [text, setText] = useState(initial?.text ?? '');
  // the text may be rounded (23.54 GiB): until the user types, the exact bytes stand

  // Follow outside changes (another profile selected) without fighting the user's typing.
  useEffect(() => {
    const typed = parseNumber(text);
    const typedBytes = typed === null ? null : Math.round(typed * unitFactor(unit));
    if (typedBytes === value) return;
    if (value === null) { setText(''); return; }
    const shown = sizeForInput(value);
    setUnit(shown.unit);
    setText(shown.text);
  }, [value]);

  const emit = (t: string, u: ByteUnit) => {
    const n = parseNumber(t);
    if (n === null) onChange(null);
    else if (Number.isFinite(n) && n >= 0) onChange(Math.round(n * unitFactor(u)));
  };
  const invalid = (() => { const n = parseNumber(text); return n !== null && (!Number.isFinite(n) || n < 0); })();

  return (
    <span className="byte-size">
      <input
        id={id}
        aria-label={label}
        inputMode="decimal"
        value={text}
        aria-invalid={invalid || undefined}
        onChange={(e) => { setText(e.target.value); emit(e.target.value, unit); }}
      />
      <select aria-label={`${label} unit`} value={unit} onChange={(e) => { const u = e.target.value as ByteUnit; setUnit(u); emit(text, u); }}>
        {BYTE_UNITS.map((u) => <option key={u.unit} value={u.unit}>{u.unit}</option>)}
      </select>
    </span>
  );
}

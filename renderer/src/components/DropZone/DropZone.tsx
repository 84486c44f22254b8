import type { KeyboardEvent } from 'react';

/**
 * The clickable, focusable target of a file drop: Enter, Space or a click opens the file chooser
 * (`onChoose`). Dropping is handled by the surrounding element (see useFileDrop), so a near miss
 * still lands.
 */
export function DropZone({ className, titleClassName, label, title, hint, hintId, onChoose, disabled = false }: {
  className: string;
  titleClassName: string;
  /** accessible name, saying what to drop and that Enter chooses files */
  label: string;
  title: string;
  hint: string;
  hintId: string;
  onChoose: () => void;
  disabled?: boolean;
}) {
  const choose = () => { if (!disabled) onChoose(); };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' || e.key === ' ') { e.preventDefault(); choose(); }
  };
  return (
    <div role="button" tabIndex={0} className={className} aria-label={label} aria-describedby={hintId}
      aria-disabled={disabled || undefined} onClick={choose} onKeyDown={onKeyDown}>
      <span className={titleClassName}>{title}</span>
      <span id={hintId} className="muted small">{hint}</span>
    </div>
  );
}

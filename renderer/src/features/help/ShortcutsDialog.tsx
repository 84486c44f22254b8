/**
 * Help › Keyboard shortcuts: the sheet listing every shortcut of the app, drawn from the same table
 * the keys are handled with (app/shortcuts.ts), with the keys of this platform (Ctrl or ⌘).
 */
import { Fragment } from 'react';
import { Dialog } from '../../components/Dialog/Dialog';
import { IS_MAC } from '../../app/undo';
import { SHORTCUTS, comboKeys } from '../../app/shortcuts';
import './help.css';

export function ShortcutsDialog({ onClose, mac = IS_MAC }: { onClose: () => void; mac?: boolean }) {
  const inFields = SHORTCUTS.flatMap((s) => s.combos.filter((c) => c.inTextField).map((c) => comboKeys(c, mac).join(mac ? '' : '+')));
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose}>
      <table className="grid-table shortcuts-table" aria-label="Keyboard shortcuts">
        <thead><tr><th scope="col">Action</th><th scope="col">Keys</th></tr></thead>
        <tbody>
          {SHORTCUTS.map((s) => (
            <tr key={s.id} data-testid="shortcut-row" data-shortcut={s.id}>
              <td>
                <span className="shortcut-label">{s.label}</span>
                {s.detail && <span className="muted small"> — {s.detail}</span>}
              </td>
              <td className="shortcut-keys">
                {s.combos.map((c, i) => (
                  <Fragment key={i}>
                    {i > 0 && <span className="muted small"> or </span>}
                    <kbd className="combo">
                      {comboKeys(c, mac).map((k, j) => <Fragment key={j}>{j > 0 && !mac && '+'}<kbd>{k}</kbd></Fragment>)}
                    </kbd>
                  </Fragment>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted small shortcuts-note">
        Shortcuts wait while you type in a text field (except {inFields.join(' and ')}) and while a dialog is open; Escape closes a dialog.
        In a list of experiments, {mac ? '⌥' : 'Alt'}+↑ / {mac ? '⌥' : 'Alt'}+↓ moves the selected one.
      </p>
    </Dialog>
  );
}

/** Copies a text to the clipboard and says so (for the ticket: a finding, a fix command). */
import { useState } from 'react';

export function CopyButton({ label, text }: { label: string; text: () => string }) {
  const [said, setSaid] = useState('');
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(text());
      setSaid('Copied');
    } catch {
      setSaid('The clipboard is not available here');
    }
    setTimeout(() => setSaid(''), 3000);
  };
  return (
    <>
      <button type="button" onClick={() => void copy()}>
        {label}
      </button>
      <span role="status" className="muted small">
        {said}
      </span>
    </>
  );
}

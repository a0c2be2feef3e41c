import { useState } from 'react';

/**
 * A session's messages. Those of severity debug (memory and CPU figures of each phase) are for whoever
 * runs the server, so they wait behind a toggle rather than fill the list every user reads.
 */
export function SessionMessages({ messages }: { messages: { severity: string; message: string }[] }) {
  const [showDebug, setShowDebug] = useState(false);
  const debug = messages.filter((m) => m.severity === 'debug');
  const shown = showDebug ? messages : messages.filter((m) => m.severity !== 'debug');
  if (messages.length === 0) return null;
  return (
    <>
      {shown.length > 0 && <ul className="plain-list" data-testid="session-messages">{shown.map((m, i) => <li key={i} className={m.severity === 'error' ? 'field-error' : m.severity === 'debug' ? 'hint' : undefined}>{m.message}</li>)}</ul>}
      {debug.length > 0 && (
        <button type="button" className="button subtle small" aria-expanded={showDebug} onClick={() => setShowDebug((v) => !v)}>
          {showDebug ? 'Hide the details' : `Show the details (${debug.length} for the operator: time and memory)`}
        </button>
      )}
    </>
  );
}

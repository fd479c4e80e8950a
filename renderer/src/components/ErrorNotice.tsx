/** An engine error in words, with its code, and a way to try again when that makes sense. */
import { asApiError } from '../api/errors';

export function ErrorNotice({ error, retry }: { error: unknown; retry?: () => void }) {
  const e = asApiError(error);
  return (
    <div className="notice error" role="alert">
      <strong>
        {e.code === 'unavailable'
          ? 'Not available'
          : e.code === 'refused'
            ? 'Refused'
            : 'Something went wrong'}
      </strong>
      <p>{e.message}</p>
      {retry && (
        <button type="button" onClick={retry}>
          Try again
        </button>
      )}
    </div>
  );
}

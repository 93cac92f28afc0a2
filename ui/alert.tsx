/** A refusal or failure shown beside what caused it, announced to screen readers; nothing when there is none. */
export function Alert({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <p role="alert" class="error">
      {message}
    </p>
  );
}

/**
 * What the people forms share — sign-in, setup, the pages one-time links open, your account: the labelled field
 * (its label tied to it by id, and required), the field that takes the keyboard on arrival, and running a form's
 * action with its busy state, the server's words on failure and its word of success.
 */
import type { RefObject } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { describe } from "./hooks.ts";

/** The ref of a page's one field to fill, which takes the keyboard when the page arrives. */
export function useFocusOnArrival() {
  const field = useRef<HTMLInputElement>(null);
  useEffect(() => field.current?.focus(), []);
  return field;
}

/**
 * Runs form actions one at a time: "busy" while one runs, the server's words when it fails, and the word of success
 * an action answers (a string; anything else shows none) once it is done.
 */
export function useFormAction() {
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (e: Event, action: () => Promise<unknown>) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setDone(null);
    try {
      const said = await action();
      setDone(typeof said === "string" ? said : null);
    } catch (err) {
      setError(describe(err));
    } finally {
      setBusy(false);
    }
  };
  return { run, error, done, busy };
}

/** A form with one action: `submit` is its onSubmit. */
export function useSubmit(action: () => Promise<unknown>) {
  const { run, ...state } = useFormAction();
  return { submit: (e: Event) => run(e, action), ...state };
}

/** One labelled, required field of a form. */
export function Field(props: {
  id: string;
  label: string;
  type?: string;
  value: string;
  onInput: (value: string) => void;
  autocomplete?: string;
  minLength?: number;
  inputRef?: RefObject<HTMLInputElement>;
}) {
  return (
    <>
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        ref={props.inputRef}
        type={props.type ?? "text"}
        autocomplete={props.autocomplete}
        minLength={props.minLength}
        required
        value={props.value}
        onInput={(e) => props.onInput(e.currentTarget.value)}
      />
    </>
  );
}

/**
 * The labelled field the people forms share — sign-in, setup, the pages one-time links open, your account — so each
 * input has its label tied to it by id, and is required.
 */
import type { RefObject } from "preact";

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

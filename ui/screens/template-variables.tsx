/**
 * The variables a template declares (docs/templates-and-ai.md#templates): each row's key, type and fallback, added
 * and removed by whoever may change the template, read-only for the others. Rows keep their identity (`row`) while
 * their fields are edited, so focus stays in the field being typed in.
 */
import { newRow, type Form, type VariableType } from "./template-form.ts";

type Variable = Form["variables"][number];

export function TemplateVariables({
  variables,
  canWrite,
  onChange,
}: {
  variables: Variable[];
  canWrite: boolean;
  onChange: (variables: Variable[]) => void;
}) {
  const setVariable = (row: number, patch: Partial<Variable>) =>
    onChange(variables.map((v) => (v.row === row ? { ...v, ...patch } : v)));
  return (
    <fieldset class="template-variables">
      <legend>Variables</legend>
      {variables.length === 0 && (
        <p class="hint">None declared. A declared variable without a fallback must be given at send time.</p>
      )}
      {variables.map((v, i) => (
        <div role="group" aria-label={`Variable ${i + 1}`} class="template-variable" key={v.row}>
          <label>
            Key
            <input
              value={v.key}
              readOnly={!canWrite}
              onInput={(e) => setVariable(v.row, { key: e.currentTarget.value })}
            />
          </label>
          <label>
            Type
            <select
              value={v.type}
              disabled={!canWrite}
              onChange={(e) => setVariable(v.row, { type: e.currentTarget.value as VariableType, fallback: "" })}
            >
              <option value="string">string</option>
              <option value="number">number</option>
            </select>
          </label>
          <label>
            Fallback
            <input
              type={v.type === "number" ? "number" : "text"}
              value={v.fallback}
              readOnly={!canWrite}
              onInput={(e) => setVariable(v.row, { fallback: e.currentTarget.value })}
            />
          </label>
          {canWrite && (
            <button
              type="button"
              onClick={() => onChange(variables.filter((x) => x.row !== v.row))}
              aria-label={`Remove variable ${v.key || i + 1}`}
            >
              Remove
            </button>
          )}
        </div>
      ))}
      {canWrite && (
        <button
          type="button"
          onClick={() => onChange([...variables, { row: newRow(), key: "", type: "string", fallback: "" }])}
        >
          Add variable
        </button>
      )}
    </fieldset>
  );
}

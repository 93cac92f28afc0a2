/**
 * The wire's building blocks (docs/architecture.md#one-contract-per-route): how an area writes the shapes of its
 * answers as TypeBox schemas — a name for the OpenAPI document and the generated client types, a nullable field,
 * Resend's list and delete answers, the paging query. Pure TypeBox: the areas' models use it without knowing HTTP.
 */
import { type TLiteral, type TSchema, type TUnion, Type as t } from "@sinclair/typebox";

/** Gives `schema` the name `id`: one entry of the document's `components.schemas`, and one type in every client. */
export function named<S extends TSchema>(id: string, schema: S): S {
  // A spread keeps TypeBox's own symbol keys (its Kind): the copy is a TypeBox schema that compiles and types.
  return { ...schema, $id: id };
}

/** A field that may be null (a union with null, as OpenAPI 3.1 writes it). */
export const Nullable = <S extends TSchema>(schema: S, options: { description?: string } = {}) =>
  t.Union([schema, t.Null()], options);

/** An id from a page already read (a UUID; refused, with this description, when it is not one). */
const Cursor = (where: string) =>
  t.String({
    pattern: "^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$",
    format: "uuid",
    description: `an id from a previous page (${where})`,
  });

/** A list's page (Resend's): spread into the query of every list route. */
export const PageQuery = {
  limit: t.Optional(t.Integer({ minimum: 1, maximum: 100, default: 20, description: "How many, 1 to 100" })),
  after: t.Optional(Cursor("the last item of the page before")),
  before: t.Optional(Cursor("the first item of the page after")),
};

/** Resend's list: `{object: "list", has_more, data}`. */
export const ListOf = <S extends TSchema>(item: S) =>
  t.Object({ object: t.Literal("list"), has_more: t.Boolean(), data: t.Array(item) });

/** Resend's delete answer: `{object, id, deleted: true}`. */
export const DeletedOf = <O extends string>(object: O) =>
  t.Object({ object: t.Literal(object), id: t.String(), deleted: t.Literal(true) });

/** The literals of `values`, as one union (an enum in the document). */
export const OneOf = <const V extends readonly string[]>(values: V, options: { description?: string } = {}) =>
  t.Union(
    values.map((value) => t.Literal(value)),
    options,
  ) as unknown as TUnion<TLiteral<V[number]>[]>;

import { type FieldProblem, renderValue } from "../../sdk/schemas";
import { badField, type HttpError } from "../errors/http-errors";

/** The fields of an input that were given: merged over a record, an absent field keeps the stored value. */
export function givenFields<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A problem when `name` is taken by another record of the same kind in the account (names are unique). */
export function nameTakenProblem(
  records: Iterable<{ id: string; name: string }>,
  name: string,
  selfId: string,
  what: string,
): FieldProblem | undefined {
  for (const r of records) {
    if (r.name === name && r.id !== selfId) {
      return {
        field: "name",
        value: renderValue(name),
        rule: `is already the name of ${what} ${r.id} in this account; ${what} names must be unique`,
      };
    }
  }
  return undefined;
}

/**
 * The platform refuses to delete a resource that another one uses ("a template that an
 * endpoint uses cannot be deleted"): a 400 naming the field, the id and each user, so the caller
 * knows what to change first.
 */
export function inUseRefusal(
  field: string,
  id: string,
  users: readonly { id: string; name?: string | undefined }[],
  kind: string,
): HttpError {
  const names = users.map((r) => (r.name && r.name !== r.id ? `${r.id} (${JSON.stringify(r.name)})` : r.id));
  const [them, s] = users.length > 1 ? ["them", "s"] : ["it", ""];
  return badField(
    field,
    id,
    `is used by ${kind}${s} ${names.join(", ")}; delete ${them} or give ${them} another ${field} first`,
  );
}

// Type-level tests of `recover`'s two kinds of text, compiled by `npm run lint:types` (in `npm test`)
// (test/tsconfig.type-tests.json). The functions that read the engine's output take only `RawText`,
// what the engine printed: text with its secrets masked is a plain string and is refused, so it
// cannot be parsed by mistake (a masked name names no stack). Each `@ts-expect-error` line must be
// an error, or the directive itself fails the build.
import { redactText } from "../../../cli/recover/backend-url";
import { engineError } from "../../../cli/recover/release-stack";
import { engineText } from "../../../cli/recover/screen";
import { parseLockError } from "../../../cli/recover/stack-lock";
import { stackNames } from "../../../cli/recover/stack-ref";

const printed = engineText('[{"name":"organization/team-backend-app/dev"}]');
const masked = redactText(printed, ["team"]);

// What the engine printed is read as it is.
export const names = stackNames(printed);
export const lock = parseLockError(printed);
export const why = engineError(printed);

// @ts-expect-error masked text is not the engine's output
stackNames(masked);
// @ts-expect-error masked text is not the engine's output
parseLockError(masked);
// @ts-expect-error masked text is not the engine's output
engineError(masked);
// @ts-expect-error nor is any other string
stackNames("[]");

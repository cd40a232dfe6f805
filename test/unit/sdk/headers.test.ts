import { describe, expect, it } from "vitest";
import { headerValue } from "../../../sdk/headers";

describe("headerValue: one response header as one string", () => {
  it("is undefined for an absent header, of either kind", () => {
    expect(headerValue(undefined, "single")).toBeUndefined();
    expect(headerValue(undefined, "list")).toBeUndefined();
  });

  it("gives a header sent once as it came, of either kind", () => {
    expect(headerValue("12", "single")).toBe("12");
    expect(headerValue('"minute";r=0;t=12', "list")).toBe('"minute";r=0;t=12');
    expect(headerValue("", "list")).toBe("");
  });

  it("takes the first line of a single-value header the server repeated", () => {
    expect(headerValue(["req-1", "req-2"], "single")).toBe("req-1");
    expect(headerValue([], "single")).toBeUndefined();
  });

  it("joins the lines of a repeated list header with a comma, as HTTP combines them", () => {
    expect(headerValue(['"minute";r=0;t=12', '"hour";r=2800;t=1812'], "list")).toBe(
      '"minute";r=0;t=12, "hour";r=2800;t=1812',
    );
    expect(headerValue([], "list")).toBe("");
  });
});

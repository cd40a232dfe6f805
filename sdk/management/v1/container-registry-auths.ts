import {
  type ContainerRegistryAuth,
  type ContainerRegistryAuthCreateInput,
  ContainerRegistryAuthCreateInputSchema,
  ContainerRegistryAuthListSchema,
  ContainerRegistryAuthSchema,
} from "../../schemas";
import type { Transport } from "../../transport";
import { ManagementResource } from "../management-resource";

/**
 * Container registry auths of the management API (`/v1/containerregistryauth`): credentials
 * templates pull private images with. `create` (names are unique in the account), `get` and `list`
 * (`{ id, name }`: the credentials never come back), `delete` (refused by the emulator while a
 * template uses the auth). The platform has no update. No error repeats the password.
 */
export class ContainerRegistryAuthsV1 extends ManagementResource<
  ContainerRegistryAuth,
  ContainerRegistryAuthCreateInput
> {
  constructor(transport: Transport) {
    super(transport, {
      version: "v1",
      api: "v1.containerRegistryAuth",
      path: "/containerregistryauth",
      noun: "container registry auth",
      schema: ContainerRegistryAuthSchema,
      listSchema: ContainerRegistryAuthListSchema,
      createSchema: ContainerRegistryAuthCreateInputSchema,
    });
  }
}

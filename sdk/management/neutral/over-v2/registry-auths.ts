import { validateForVersion } from "../../../request-validation";
import {
  type ContainerRegistryAuth,
  type ContainerRegistryAuthCreateInput,
  ContainerRegistryAuthCreateInputSchema,
} from "../../../schemas";
import type * as V2 from "../../../schemas/v2";
import type { CallOptions } from "../../../transport";
import type { ContainerRegistryAuthOperations } from "../api";
import type { RegistriesV2 } from "../../v2/registries";

/** A v2 registry credential in the neutral shape (id and name: the credentials never come back). */
export function registryAuthFromV2(registry: V2.Registry): ContainerRegistryAuth {
  return { id: registry.id, name: registry.name };
}

/** The v2 create body of a neutral create input (the same three fields: name, username, password). */
export function registryAuthCreateToV2(input: ContainerRegistryAuthCreateInput): V2.CreateRegistryRequest {
  return { name: input.name, username: input.username, password: input.password };
}

/**
 * The version-neutral container registry credential operations on management API v2, over
 * `client.v2.registries` (`/v2/registries`). No error repeats the password.
 */
export class NeutralContainerRegistryAuthsOverV2 implements ContainerRegistryAuthOperations {
  constructor(private readonly v2: RegistriesV2) {}

  async create(input: ContainerRegistryAuthCreateInput, options?: CallOptions): Promise<ContainerRegistryAuth> {
    const valid = validateForVersion(
      ContainerRegistryAuthCreateInputSchema,
      input,
      "create container registry auth",
      "containerRegistryAuth",
      "v2",
    );
    return registryAuthFromV2(await this.v2.create(registryAuthCreateToV2(valid), options));
  }

  async get(id: string, options?: CallOptions): Promise<ContainerRegistryAuth> {
    return registryAuthFromV2(await this.v2.get(id, options));
  }

  async list(options?: CallOptions): Promise<ContainerRegistryAuth[]> {
    return (await this.v2.list(options)).map(registryAuthFromV2);
  }

  delete(id: string, options?: CallOptions): Promise<void> {
    return this.v2.delete(id, options);
  }
}

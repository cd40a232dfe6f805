import { RequestValidationError } from "../errors";
import { validateRequest } from "../request-validation";
import {
  type NetworkVolume,
  type NetworkVolumeCreateInput,
  NetworkVolumeCreateInputSchema,
  NetworkVolumeListSchema,
  NetworkVolumeSchema,
  type NetworkVolumeUpdateInput,
  NetworkVolumeUpdateInputSchema,
  volumeSizeChangeProblem,
} from "../schemas";
import type { CallOptions, Transport } from "../transport";

/** Options of {@link NetworkVolumes.update}. */
export interface VolumeUpdateOptions extends CallOptions {
  /**
   * The volume's current size, when the caller knows it. The size-only-grows rule is checked
   * against it before any request; without it, the client reads the volume first.
   */
  currentSize?: number | undefined;
  /** `PATCH /networkvolumes/{id}` (default) or its synonym `POST /networkvolumes/{id}/update`. */
  method?: "PATCH" | "POST" | undefined;
}

/** Network volumes of the management API (`/v1/networkvolumes`). */
export class NetworkVolumes {
  constructor(private readonly transport: Transport) {}

  private get base() {
    return this.transport.config.apiUrl;
  }

  /** Creates a volume. Not idempotent: a lost answer is not retried (see retry-policy.ts). */
  async create(input: NetworkVolumeCreateInput, options?: CallOptions): Promise<NetworkVolume> {
    const body = validateRequest(NetworkVolumeCreateInputSchema, input, "create network volume");
    return this.transport.send({
      method: "POST",
      base: this.base,
      path: "/networkvolumes",
      body: JSON.stringify(body),
      idempotent: false,
      schema: NetworkVolumeSchema,
      options,
    });
  }

  /** Reads one volume; a missing one is a `NotFoundError` (code `not_found`). */
  async get(id: string, options?: CallOptions): Promise<NetworkVolume> {
    return this.transport.send({
      method: "GET",
      base: this.base,
      path: `/networkvolumes/${encodeURIComponent(id)}`,
      idempotent: true,
      schema: NetworkVolumeSchema,
      options,
    });
  }

  /** Lists the account's volumes. */
  async list(options?: CallOptions): Promise<NetworkVolume[]> {
    return this.transport.send({
      method: "GET",
      base: this.base,
      path: "/networkvolumes",
      idempotent: true,
      schema: NetworkVolumeListSchema,
      options,
    });
  }

  /**
   * Renames and/or grows a volume. A size that does not grow is refused here, before the update
   * is sent (spec: "size in an update must exceed the current size").
   */
  async update(id: string, input: NetworkVolumeUpdateInput, options?: VolumeUpdateOptions): Promise<NetworkVolume> {
    const body = validateRequest(NetworkVolumeUpdateInputSchema, input, "update network volume");
    if (body.size !== undefined) {
      const current = options?.currentSize ?? (await this.get(id, options)).size;
      const problem = volumeSizeChangeProblem(current, body.size);
      if (problem || body.size === current) {
        throw new RequestValidationError(
          [
            {
              field: "size",
              value: String(body.size),
              rule: problem ?? `must be greater than the current size of ${current} GB`,
            },
          ],
          `update network volume ${id}`,
        );
      }
    }
    const method = options?.method ?? "PATCH";
    return this.transport.send({
      method,
      base: this.base,
      path: `/networkvolumes/${encodeURIComponent(id)}${method === "POST" ? "/update" : ""}`,
      body: JSON.stringify(body),
      idempotent: true,
      schema: NetworkVolumeSchema,
      options,
    });
  }

  /** Deletes a volume (200 or 204). A missing one is a `NotFoundError`. */
  async delete(id: string, options?: CallOptions): Promise<void> {
    await this.transport.send({
      method: "DELETE",
      base: this.base,
      path: `/networkvolumes/${encodeURIComponent(id)}`,
      idempotent: true,
      options,
    });
  }
}

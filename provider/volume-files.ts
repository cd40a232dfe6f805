import * as pulumi from "@pulumi/pulumi";
import { type InputsAsOutputs, type Integer, isResourceOfType, RunpodResource, typeToken } from "./runpod-resource";

/**
 * Inputs of a {@link VolumeFiles}: which volume, which files, under which folder
 * (docs/resources.md, "VolumeFiles").
 */
export interface VolumeFilesArgs {
  /**
   * Id of the network volume the files go on (`volume.id`). The files are written through the
   * S3-compatible API of the volume's data center, with the S3 API key of the provider's
   * configuration (`s3AccessKeyId` and `s3SecretAccessKey`: docs/configuration.md). A new volume
   * gets every file again.
   * @replaces
   */
  networkVolumeId: pulumi.Input<string>;
  /**
   * The files: a `FileArchive` of a folder (each file under its path in the folder), or an
   * `AssetArchive` of named `FileAsset`s, `StringAsset`s and folder `FileArchive`s (a folder's files
   * under its name). Relative paths are the project directory's. An update sends only the files
   * whose content changed, and removes the files it put there that are gone from here; other files
   * on the volume are never touched. Zip and tar files and remote assets are refused: give a folder.
   */
  files: pulumi.Input<pulumi.asset.Archive>;
  /**
   * The folder on the volume the files go under, e.g. `models/llama` (a worker sees
   * `/runpod-volume/models/llama/...`). Default: the volume's root. A change puts the files in the
   * new folder and removes them from the old.
   * @replaces
   */
  prefix?: pulumi.Input<string>;
  /**
   * The volume's size in GB (`volume.size`), when the program knows it: files larger in total are
   * then refused at `pulumi preview`. Without it they are refused at `pulumi up`, against the size
   * the platform reports, before any file is sent. A change alone sends nothing.
   */
  volumeSizeGb?: pulumi.Input<number>;
}

// The outputs of a VolumeFiles that repeat its inputs: the volume always, the prefix when set.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging -- the outputs are the class's, set by the engine as `declare readonly` properties are
export interface VolumeFiles extends InputsAsOutputs<VolumeFilesArgs, "networkVolumeId", "prefix"> {}

/**
 * Files on a network volume, written through the volume's S3-compatible API as part of
 * `pulumi up`: model weights, tokenizers, data. Create uploads every file; an update uploads only
 * the files whose content changed (by the content hashes kept in state) and removes those it had
 * put there that the program no longer has; delete removes what it uploaded and nothing else.
 * `pulumi preview` says which files will be uploaded and removed, and an unchanged preview reads
 * no file and sends no request. `pulumi refresh` finds files changed or removed on the volume by
 * hand, and the next `pulumi up` writes them again. Put `hash` into an endpoint's env to roll its
 * workers when the files change.
 *
 * Its id is the volume's id, then `/` and the prefix when there is one (`abc123/models/llama`): what
 * `pulumi import` takes (provider plugin). An import cannot know which files on the volume are the
 * resource's, so it owns none until the next `pulumi up`, which uploads the program's `files`
 * (the printed code lacks them: add them); files already on the volume as the program has them are
 * taken over without being sent again, as at any create.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- see the interface above
export class VolumeFiles extends RunpodResource {
  /** Type token, for policies (`validateResourceOfType`) and `isInstance`. */
  static readonly __pulumiType = typeToken("VolumeFiles");

  /** The data center of the volume, whose S3-compatible API the files went through. */
  declare readonly dataCenterId: pulumi.Output<string>;
  /** How many files the volume holds of this resource's. */
  declare readonly fileCount: pulumi.Output<Integer>;
  /** Their size together, in bytes. */
  declare readonly totalBytes: pulumi.Output<Integer>;
  /**
   * One SHA-256 of the whole set (each file's name, content hash and size): it changes exactly when
   * a file is added, removed, renamed or changed. Put it into an endpoint's env to roll its
   * workers when the files change.
   */
  declare readonly hash: pulumi.Output<string>;
  /**
   * What the resource put on the volume, as a JSON text: by name under the prefix,
   * `<size> <SHA-256, base64url> <ETag>` (then the content's MD5 when the ETag is not it, and `!`
   * for a file a refresh found changed or gone on the volume). What previews, updates and
   * refreshes compare; one compact text, since it may hold tens of thousands of files.
   */
  declare readonly manifest: pulumi.Output<string>;

  constructor(name: string, args: VolumeFilesArgs, opts?: pulumi.CustomResourceOptions) {
    const props = {
      ...args,
      // Which resource the preview's words and the upload's progress are about (the provider
      // gets no URN of its own).
      __urn: pulumi.createUrn(name, typeToken("VolumeFiles"), opts?.parent),
      // Output-only: listed (undefined) so the engine registers them as output properties.
      dataCenterId: undefined,
      fileCount: undefined,
      totalBytes: undefined,
      hash: undefined,
      manifest: undefined,
    };
    super("VolumeFiles", name, props, opts);
  }

  /** Whether `obj` is a VolumeFiles, even across copies of this package. */
  static override isInstance(obj: unknown): obj is VolumeFiles {
    return isResourceOfType(obj, "VolumeFiles");
  }
}

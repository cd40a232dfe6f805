import { AbortError, RunpodError } from "../errors";
import { sleepUnlessAborted } from "../polling";
import { BatchAckSchema } from "../schemas";
import { Transport } from "../transport";
import { AppendPart } from "./batch-bodies";
import { appendPart, FatalRunError, finalizeBatch, sendWrite } from "./batch-api-calls";
import { collectSlot } from "./batch-api-collect";
import { type ResumeContext, resumeJournal } from "./batch-api-resume";
import { batchPath, bodyHash, ChangeSignal, type Pending, pendingOf, type Slot } from "./batch-api-slot";
import { type BatchInputs, InputReader } from "./batch-inputs";
import { BatchJournal } from "./batch-journal";
import type { BatchOutcome, ResolvedSubmitManyOptions } from "./batch-options";

/**
 * `submitMany` through the batch API (`submitWith: "batch"`, docs/client.md "Batch jobs through
 * submitMany"). One producer reads the inputs in order and fills batches, at most
 * `maxActiveBatches` at once: it creates an empty batch, appends parts of at most 10 MiB until
 * the batch holds `batchSize` requests, and finalizes it; each finalized batch is then collected
 * on its own (batch-api-collect.ts). Every step that changes the platform is announced in the
 * journal first (batch-journal.ts), so a rerun resumes (batch-api-resume.ts); a lost answer is
 * settled by the batch's counters, never by sending again blindly.
 */
export class BatchApiRun<I, O> implements ResumeContext<O> {
  readonly transport: Transport;
  readonly prefix: string;
  readonly journal: BatchJournal | undefined;
  halted = false;
  private fatal: RunpodError | undefined;
  private readError: { error: unknown } | undefined;
  private readonly stop = new AbortController();
  private readonly reader: InputReader<I>;
  private inputsEnded = false;
  private readonly ready: BatchOutcome<O>[] = [];
  private readonly slots: Slot[] = [];
  private readonly collectors: Promise<void>[] = [];
  /** Read and not in a batch: reported `aborted` (or the fatal error) when the run stops. */
  private readonly unsent = new Set<number>();
  private active = 0;
  private nextSeq = 0;
  private counts = { read: 0, sent: 0, reported: 0 };
  private finished = false;
  private readonly signal = new ChangeSignal();

  constructor(
    owner: Transport,
    readonly endpointId: string,
    inputs: BatchInputs<I>,
    readonly options: ResolvedSubmitManyOptions,
    context: string,
  ) {
    this.transport = new Transport(owner.config);
    this.prefix = `/${encodeURIComponent(endpointId)}/`;
    this.reader = new InputReader(inputs);
    this.journal = options.journal ? BatchJournal.open(options.journal, endpointId, context) : undefined;
  }

  async *outcomes(): AsyncGenerator<BatchOutcome<O>, void, undefined> {
    const signal = this.options.signal;
    const onAbort = () => this.halt(undefined);
    signal?.addEventListener("abort", onAbort, { once: true });
    if (signal?.aborted) this.halt(undefined);
    void this.main();
    try {
      for (;;) {
        const next = this.ready.shift();
        if (next) {
          this.counts.reported++;
          this.notify();
          yield next;
          continue;
        }
        if (this.finished) break;
        await this.changed();
      }
      if (this.readError) throw this.readError.error;
      if (this.fatal) throw this.fatal;
    } finally {
      signal?.removeEventListener("abort", onAbort);
      this.halt(undefined);
      void this.reader.stop().catch(() => undefined);
      this.journal?.close();
      void this.transport.close().catch(() => undefined);
    }
  }

  private async main(): Promise<void> {
    try {
      if (this.journal) await resumeJournal(this, this.journal);
      await this.produce();
    } catch (error) {
      this.crash(error);
    }
    await Promise.allSettled(this.collectors);
    if (this.halted) await this.sweep();
    this.finished = true;
    this.notify();
  }

  /** Fills batches from the inputs until they end or the run stops. */
  private async produce(): Promise<void> {
    let next = await this.nextValid();
    while (next && !this.halted) {
      if (!(await this.slotFree())) return;
      const slot = await this.createBatch(next.index);
      if (!slot) return;
      next = await this.fill(slot, next);
      if (!this.halted && (await finalizeBatch(this, slot.id))) {
        this.journal?.write({ t: "finalized", seq: slot.seq });
        this.collect(slot);
      }
    }
  }

  /** Appends parts to the batch until it holds `batchSize` requests or the inputs end; answers the input read for the next batch. */
  private async fill(slot: Slot, first: Pending): Promise<Pending | undefined> {
    const size = this.options.batchSize;
    let part = new AppendPart(size);
    let partIndices: number[] = [];
    let next: Pending | undefined = first;
    while (next && slot.indices.length + partIndices.length < size && !this.halted) {
      if (part.add(next.text, next.bytes)) {
        partIndices.push(next.index);
        next = await this.nextValid();
        continue;
      }
      if (!(await this.sendPart(slot, part, partIndices))) return next;
      part = new AppendPart(size);
      partIndices = [];
    }
    if (this.halted) return next; // what was read and not sent is reported by the sweep
    if (partIndices.length > 0 && !(await this.sendPart(slot, part, partIndices))) return next;
    this.journal?.write({ t: "finalize", seq: slot.seq }, true);
    return next;
  }

  /** Sends one part; its inputs join the batch's positions (reported `aborted` if the run stops before it is known to be in). */
  private async sendPart(slot: Slot, part: AppendPart, indices: number[]): Promise<boolean> {
    const { body, count } = part.take();
    const offset = slot.indices.length;
    const from = indices[0]!;
    const to = indices[indices.length - 1]!;
    this.journal?.write({ t: "append", seq: slot.seq, offset, count, from, to, hash: bodyHash(body) }, true);
    const ok = await appendPart(this, slot.id, body, offset, count);
    for (const index of indices) slot.indices.push(index);
    this.placed(indices);
    if (!ok) return false;
    this.journal?.write({ t: "appended", seq: slot.seq, offset });
    this.counts.sent += count;
    this.progress();
    return true;
  }

  /** Creates an empty batch. A create whose answer was lost made at most an empty DRAFT, which never runs: another is created. */
  private async createBatch(from: number): Promise<Slot | undefined> {
    const seq = this.nextSeq++;
    this.journal?.write({ t: "create", seq, from }, true);
    for (let lost = 0; ; lost++) {
      const sent = await sendWrite(this, `${this.prefix}batch`, "[]", BatchAckSchema);
      if (sent.kind === "stopped") return undefined;
      if (sent.kind === "answered") {
        this.journal?.write({ t: "created", seq, id: sent.value.id });
        return this.adopt({
          seq,
          id: sent.value.id,
          indices: [],
          done: false,
          summary: undefined,
          reported: undefined,
        });
      }
      if (lost >= 4) throw new FatalRunError(sent.error);
    }
  }

  /** A batch of the run (new, or from the journal): it counts as active until it is done. */
  adopt(slot: Slot): Slot {
    this.slots.push(slot);
    this.active++;
    this.nextSeq = Math.max(this.nextSeq, slot.seq + 1);
    return slot;
  }

  /** Starts collecting a finalized batch's results. */
  collect(slot: Slot): void {
    this.collectors.push(collectSlot(this, slot).catch((error: unknown) => this.crash(error)));
  }

  placed(indices: readonly number[]): void {
    for (const index of indices) this.unsent.delete(index);
  }

  /** Counts requests found in the batches of the journal. */
  resumed(count: number): void {
    this.counts.sent += count;
  }

  /** The next input that can go into a batch; inputs refused before sending get their `error` outcome here. */
  async nextValid(): Promise<Pending | undefined> {
    for (;;) {
      if (this.halted || this.inputsEnded) return undefined;
      let item: Awaited<ReturnType<InputReader<I>["read"]>>;
      try {
        item = await this.reader.read();
      } catch (error) {
        // The caller's iterator threw: what was read still ends, then the iterator rethrows it.
        this.readError = { error };
        item = undefined;
      }
      if (!item) {
        this.inputsEnded = true;
        return undefined;
      }
      this.counts.read++;
      const pending = pendingOf(item.request, item.index, this.options, this.endpointId);
      if (pending instanceof RunpodError) {
        await this.push({ kind: "error", index: item.index, error: pending });
        continue;
      }
      this.unsent.add(item.index);
      return pending;
    }
  }

  async push(outcome: BatchOutcome<O>): Promise<void> {
    this.ready.push(outcome);
    this.notify();
    while (!this.halted && this.ready.length >= this.options.concurrency) await this.changed();
  }

  slotDone(slot: Slot): void {
    if (slot.done) return;
    slot.done = true;
    this.active--;
    this.progress();
    this.notify();
  }

  progress(): void {
    const report = this.options.onProgress;
    if (!report) return;
    const sum = (of: (slot: Slot) => number | undefined) => this.slots.reduce((n, slot) => n + (of(slot) ?? 0), 0);
    const completed = sum((slot) => slot.summary?.requestCompleted);
    const failed = sum((slot) => slot.summary?.requestFailed);
    report({ ...this.counts, completed, failed, batches: this.slots.length, activeBatches: this.active });
  }

  sleep(ms: number): Promise<boolean> {
    return sleepUnlessAborted(ms, this.stop.signal);
  }

  /** Waits for a batch's place: fewer than `maxActiveBatches` of the run active. False when the run stopped. */
  private async slotFree(): Promise<boolean> {
    while (this.active >= this.options.maxActiveBatches) {
      if (this.halted) return false;
      await this.changed();
    }
    return !this.halted;
  }

  /** Stops the run: the caller aborted (no error) or nothing can succeed (`fatal`). */
  private halt(fatal: RunpodError | undefined): void {
    if (this.halted) return;
    this.halted = true;
    this.fatal = fatal;
    this.stop.abort();
    this.notify();
  }

  private crash(error: unknown): void {
    if (error instanceof FatalRunError) return this.halt(error.error);
    if (error instanceof RunpodError) return this.halt(error);
    this.halt(new RunpodError("api_error", String(error), { cause: error }));
  }

  /** The run stopped: every input read without an outcome gets one, `aborted` or the fatal error. */
  private async sweep(): Promise<void> {
    const outcome = (index: number, path: string): BatchOutcome<O> =>
      this.fatal
        ? { kind: "error", index, error: this.fatal }
        : { kind: "aborted", index, error: new AbortError({ method: "GET", path }) };
    for (const slot of this.slots) {
      const path = batchPath(this.prefix, slot.id);
      slot.indices.forEach((index, at) => {
        if (!slot.reported?.[at]) this.ready.push(outcome(index, path));
      });
    }
    for (const index of this.unsent) this.ready.push(outcome(index, `${this.prefix}batch`));
    this.notify();
  }

  private changed(): Promise<void> {
    return this.signal.changed();
  }

  private notify(): void {
    this.signal.notify();
  }
}

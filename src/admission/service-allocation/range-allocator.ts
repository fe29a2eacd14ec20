/**
 * A bitmap allocator kept in storage as a RangeAllocation object (upstream
 * pkg/registry/core/service/allocator/storage: `/registry/ranges/serviceips` and
 * `/registry/ranges/servicenodeports`). Every change is a compare-and-swap update of that one
 * object, so replicas allocating at once never hand out the same item. A dry-run allocator
 * (`dryRun()`) answers from the same bitmap but writes nothing, as upstream's DryRun allocator.
 */
import type { ApiObject } from '../../api/object.js';
import { ApiError, internalError } from '../../errors/api-error.js';
import type { ObjectStorage } from '../../storage/types.js';
import { errorMessage } from '../../api/error-message.js';

export class RangeAllocator {
  /**
   * @param key relative storage key, e.g. `ranges/serviceips`
   * @param range the range's description stored with it, e.g. `10.0.0.0/24`
   * @param size number of items (offsets 0..size-1)
   * @param what noun for the range-full error, e.g. `serviceIP`
   * @param staticBand offsets below this are handed out by allocateNext only when the rest is
   *   full, so that requested items rarely collide with random ones (upstream's static
   *   subranges, KEP-3070 for IPs and KEP-3668 for node ports)
   */
  constructor(
    private readonly storage: ObjectStorage,
    private readonly key: string,
    private readonly range: string,
    readonly size: number,
    private readonly what: string,
    private readonly staticBand = 0,
    private readonly dry = false,
  ) {}

  /** The same range, answering without keeping anything (for dry-run writes). */
  dryRun(): RangeAllocator {
    return new RangeAllocator(this.storage, this.key, this.range, this.size, this.what, this.staticBand, true);
  }

  /** Mark `offset` used. Returns false if it already was. */
  async allocate(offset: number): Promise<boolean> {
    let taken = false;
    await this.modify((bits) => {
      taken = get(bits, offset);
      if (!taken) set(bits, offset, true);
      return !taken;
    });
    return !taken;
  }

  /**
   * Take a free offset, scanning from a random start above the static band, then the band.
   * Throws ApiError 500 when the range is full.
   */
  async allocateNext(): Promise<number> {
    let chosen = -1;
    const band = this.staticBand < this.size ? this.staticBand : 0;
    const scan = (bits: Uint8Array, from: number, count: number): boolean => {
      const start = Math.floor(Math.random() * count);
      for (let i = 0; i < count; i++) {
        const o = from + ((start + i) % count);
        if (!get(bits, o)) {
          chosen = o;
          set(bits, o, true);
          return true;
        }
      }
      return false;
    };
    await this.modify((bits) => {
      chosen = -1;
      return scan(bits, band, this.size - band) || (band > 0 && scan(bits, 0, band));
    });
    if (chosen < 0) throw internalError(`failed to allocate a ${this.what}: range is full`);
    return chosen;
  }

  /** Mark `offset` free (no-op when it already is). */
  async release(offset: number): Promise<void> {
    await this.modify((bits) => {
      if (!get(bits, offset)) return false;
      set(bits, offset, false);
      return true;
    });
  }

  /** Read-modify-write the bitmap; `change` returns whether it changed anything. */
  private async modify(change: (bits: Uint8Array) => boolean): Promise<void> {
    try {
      await this.storage.guaranteedUpdate(
        this.key,
        (current) => {
          const bits = new Uint8Array(Math.ceil(this.size / 8));
          if (current?.data) bits.set(Buffer.from(String(current.data), 'base64').subarray(0, bits.length));
          if (!change(bits) && current) return current;
          const obj: ApiObject = {
            kind: 'RangeAllocation',
            apiVersion: 'v1',
            metadata: { name: '' },
            range: this.range,
            data: Buffer.from(bits).toString('base64'),
          };
          return obj;
        },
        { allowCreate: true, dryRun: this.dry },
      );
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw internalError(`failed to update the ${this.what} allocation: ${errorMessage(err)}`);
    }
  }
}

function get(bits: Uint8Array, offset: number): boolean {
  return (bits[offset >> 3] & (1 << (offset & 7))) !== 0;
}

function set(bits: Uint8Array, offset: number, value: boolean): void {
  if (value) bits[offset >> 3] |= 1 << (offset & 7);
  else bits[offset >> 3] &= ~(1 << (offset & 7));
}

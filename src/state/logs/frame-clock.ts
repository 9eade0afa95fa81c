/**
 * Coalesces data and status changes into at most one update per frame: schedule() asks for a
 * flush, at once when the last one is a frame ago, else when a frame will have passed.
 */
export class FrameClock {
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** When the last flush ran. */
  lastFlush = 0;

  constructor(
    private readonly frameMs: number,
    private readonly now: () => number,
    private readonly flush: () => void,
  ) {}

  schedule(delay?: number): void {
    if (this.timer !== null) return;
    const wait = delay ?? Math.max(0, this.frameMs - (this.now() - this.lastFlush));
    this.timer = setTimeout(() => {
      this.timer = null;
      this.lastFlush = this.now();
      this.flush();
    }, wait);
    this.timer.unref?.();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}

/**
 * For a process started by another one with an IPC channel (`burrow emulator` under the console
 * or `burrow sql`): calls `onGone` once when that parent dies, however it died. SIGKILL and the
 * OOM killer give the parent no chance to stop its children, but the kernel closes the channel
 * (the 'disconnect' event); a parent check every `everyMs` is the fallback (once the parent is
 * gone, this process is handed to another one and its ppid changes).
 */
export function watchParent(onGone: () => void, everyMs = 500): () => void {
  const parent = process.ppid;
  let fired = false;
  const timer = setInterval(() => {
    if (process.ppid !== parent) fire();
  }, everyMs);
  timer.unref();
  function cancel(): void {
    clearInterval(timer);
    process.off('disconnect', fire);
  }
  function fire(): void {
    if (fired) return;
    fired = true;
    cancel();
    onGone();
  }
  process.once('disconnect', fire);
  // the channel only watches: it must not keep this process alive by itself
  (process as NodeJS.Process & { channel?: { unref(): void } }).channel?.unref();
  return cancel;
}

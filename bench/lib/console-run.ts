import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ReadyInfo } from '../../src/emulator/ready-info';
import { burrowEnv } from './emulator-child';
import { runInPty, type PtyRun } from './pty-screen';

export interface ConsoleRun {
  run: PtyRun;
  /** The frame log (BURROW_FRAME_LOG) the keystroke benchmarks read. */
  log: string;
  /** Stops the console and removes its HOME. */
  close: () => void;
}

/** The console in a 120x40 pty on an emulator, in a HOME of its own whose config sets the log buffer size. */
export function startConsole(info: ReadyInfo, name: string, logBufferSize: number): ConsoleRun {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `burrow-bench-${name}-`));
  fs.mkdirSync(path.join(dir, '.config', 'burrow'), { recursive: true });
  fs.writeFileSync(path.join(dir, '.config', 'burrow', 'config.yaml'), `logBufferSize: ${logBufferSize}\n`);
  const log = path.join(dir, 'frames.log');
  const run = runInPty(process.execPath, ['bin/burrow.js'], { ...burrowEnv(info), BURROW_FRAME_LOG: log, HOME: dir }, 120, 40);
  return {
    run,
    log,
    close: () => {
      run.kill();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

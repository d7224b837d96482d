import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ownCpuMeter } from '../bench/cpu.js';

/**
 * The benchmark's `gen cpu` column: the CPU its own process (the load generator) used while it
 * drove a scenario. It must count this process's work, and not another process's, so that the
 * server's, PostgreSQL's and the generator's shares of the machine add up.
 */
describe("the load generator's own CPU meter", () => {
  const spin = (ms: number) => {
    const until = performance.now() + ms;
    let x = 0;
    while (performance.now() < until) x += Math.sqrt(x + 1);
    return x;
  };

  it("counts this process's work", () => {
    const meter = ownCpuMeter();
    spin(120);
    const used = meter.stop();
    expect(used).toBeGreaterThanOrEqual(60);
    expect(used).toBeLessThan(1_000);
  });

  it("does not count a child process's work", async () => {
    const meter = ownCpuMeter();
    const child = spawn(process.execPath, [
      '-e',
      'const t = Date.now() + 400; let x = 0; while (Date.now() < t) x += Math.sqrt(x + 1);',
    ]);
    await new Promise((resolve) => child.on('exit', resolve));
    expect(meter.stop()).toBeLessThan(200);
  });
});

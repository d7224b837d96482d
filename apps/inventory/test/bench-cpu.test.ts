import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ownCpuMeter } from '../bench/cpu.js';

const CPU_MODULE = fileURLToPath(new URL('../bench/cpu.ts', import.meta.url));

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

  /**
   * The process's CPU as the kernel counts it (/proc/self/stat's utime and stime, in ticks of
   * 10 ms): a second opinion that does not depend on how much of a core a loaded machine gives
   * the spin in its wall time.
   */
  const kernelCpuMs = () => {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  };

  it("counts this process's work, as the kernel counts it", () => {
    const kernelBefore = kernelCpuMs();
    const meter = ownCpuMeter();
    spin(200);
    const used = meter.stop();
    const kernelUsed = kernelCpuMs() - kernelBefore;
    expect(used).toBeGreaterThan(0);
    // Two readings of the same counters, each end within a 10 ms tick.
    expect(Math.abs(used - kernelUsed)).toBeLessThan(40);
  });

  it("does not count a child process's work", async () => {
    // Measured in a process of its own: this test worker may run other files' leftovers (timers,
    // collectors) meanwhile, which the meter rightly counts as this process's work.
    const script = `
      import { spawnSync } from 'node:child_process';
      import { ownCpuMeter } from ${JSON.stringify(CPU_MODULE)};
      const meter = ownCpuMeter();
      spawnSync(process.execPath, ['-e', 'const t = Date.now() + 400; let x = 0; while (Date.now() < t) x += Math.sqrt(x + 1);']);
      process.stdout.write(String(meter.stop()));
    `;
    const measured = await new Promise<string>((resolve, reject) => {
      const meter = spawn(process.execPath, [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        script,
      ]);
      let out = '';
      meter.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        out += chunk;
      });
      meter.on('error', reject);
      meter.on('exit', () => resolve(out));
    });
    expect(measured).toMatch(/^\d+(\.\d+)?$/);
    expect(Number(measured)).toBeLessThan(200);
  });
});

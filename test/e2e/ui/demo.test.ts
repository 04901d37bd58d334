import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { repoRoot } from '../harness/paths';
import { poll } from '../harness/workbench';

/** Whether something accepts connections on 127.0.0.1:port. */
function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The ports the demo prints once everything is up: code-server's ("Open:") and the fake service's. */
function readyPorts(child: ChildProcess): Promise<{ codeServer: number; fake: number }> {
  return new Promise((resolve, reject) => {
    let codeServer: number | undefined;
    let output = '';
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      output += `${line}\n`;
      const open = /^\s*Open:\s+http:\/\/127\.0\.0\.1:(\d+)\//.exec(line);
      const fake = /^\s*Fake service:\s+http:\/\/127\.0\.0\.1:(\d+)/.exec(line);
      if (open) {
        codeServer = Number(open[1]);
      } else if (fake && codeServer !== undefined) {
        resolve({ codeServer, fake: Number(fake[1]) });
      }
    });
    child.once('exit', (code) => reject(new Error(`the demo exited (${code}) before it was ready:\n${output}`)));
  });
}

describe('The demo (npm run demo)', function () {
  this.timeout(120_000);

  // As users start it: `npm run demo`, whose npm exits on a signal without passing it on to the demo.
  const viaNpm = (): ChildProcess =>
    spawn('npm', ['run', '--silent', 'demo', '--', '--port', '0'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  // The demo's own process, as a process manager or a closed terminal signals it.
  const direct = (): ChildProcess =>
    spawn(process.execPath, [path.join(repoRoot, 'scripts', 'demo.mjs'), '--port', '0'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
  for (const [signal, how, start] of [
    ['SIGTERM', 'npm run demo', viaNpm],
    ['SIGTERM', 'the demo itself', direct],
    ['SIGHUP', 'the demo itself', direct],
  ] as const) {
    it(`stops code-server and the fake service when ${how} gets ${signal}, freeing both ports within 10 s`, async () => {
      const child = start();
      const exited = new Promise<number | string>((resolve) =>
        child.once('exit', (code, name) => resolve(code ?? name ?? 'unknown')),
      );
      try {
        const ports = await readyPorts(child);
        assert.ok(await isListening(ports.codeServer), 'code-server listens');
        assert.ok(await isListening(ports.fake), 'the fake service listens');
        child.kill(signal);
        await poll(
          async () => !(await isListening(ports.codeServer)) && !(await isListening(ports.fake)),
          10_000,
          `a port was still in use after ${signal}`,
        );
        assert.notEqual(await exited, 'unknown', 'the demo exited');
      } finally {
        child.kill('SIGKILL');
      }
    });
  }
});

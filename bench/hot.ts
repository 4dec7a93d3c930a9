/**
 * Summarizes a V8 .cpuprofile: the functions with the most self time (name, file:line, ms, share).
 *   node build/bench/hot.js build/prof/<file>.cpuprofile [top] [lastSeconds]
 * `lastSeconds` counts only the samples of the profile's last seconds (the measured loop of
 * profile.js, without the start-up that loads modules and builds the workloads).
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

function main(): void {
  const [file, topText = '25', lastText] = process.argv.slice(2);
  const profile = JSON.parse(readFileSync(file, 'utf8')) as {
    nodes: ProfileNode[];
    samples: number[];
    timeDeltas: number[];
  };
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  let total = 0;
  const end = profile.timeDeltas.reduce((a, b) => a + b, 0);
  const from = lastText === undefined ? -Infinity : end - Number(lastText) * 1e6;
  let at = 0;
  profile.samples.forEach((id, i) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from) return;
    total += delta;
    if (node === undefined) return;
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^.*\/main\//, '')}:${f.lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + delta);
  });
  const top = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(topText));
  for (const [key, us] of top)
    process.stdout.write(
      `${(us / 1000).toFixed(1).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}\n`,
    );
}

main();

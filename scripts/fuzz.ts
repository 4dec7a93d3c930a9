/**
 * Open-ended admission fuzzing: runs the properties of spec/hardening/admission-properties.ts in
 * rounds, each round with a fresh seed derived from the start seed, until the time is up.
 *
 *   npm run fuzz -- --seconds 60 --seed 42
 *
 * `--seconds N` (default 30): stop starting rounds after N seconds of wall time.
 * `--seed S` (default: the current time): the first round's seed; round r uses S + r.
 * On a failure it prints the property, the seed and the shrunk counterexample, with the command
 * that replays it, and exits 1; otherwise it prints how many cases ran and exits 0.
 */
import fc from 'fast-check';
import { ADMISSION_PROPERTIES } from '../spec/hardening/admission-properties';

interface Options {
  seconds: number;
  seed: number;
}

function parseArgs(argv: readonly string[]): Options {
  const options: Options = { seconds: 30, seed: Date.now() % 2_147_483_647 };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = Number(argv[i + 1]);
    if (flag !== '--seconds' && flag !== '--seed') {
      throw new Error(`fuzz: unknown argument ${JSON.stringify(flag)}; use --seconds N --seed S`);
    }
    if (!Number.isInteger(value) || value < 0) {
      throw new Error(`fuzz: ${flag} needs a non-negative integer, got ${JSON.stringify(argv[i + 1])}`);
    }
    if (flag === '--seconds') options.seconds = value;
    else options.seed = value;
    i++;
  }
  return options;
}

/** Cases per property per round: a round stays short so the time limit is honored closely. */
const ROUND_RUNS = 200;

function main(): number {
  const { seconds, seed } = parseArgs(process.argv.slice(2));
  const deadline = Date.now() + seconds * 1000;
  let cases = 0;
  let round = 0;
  console.log(`fuzz: ${ADMISSION_PROPERTIES.length} properties, seed ${seed}, ${seconds} s`);
  do {
    for (const { name, property } of ADMISSION_PROPERTIES) {
      const runSeed = seed + round;
      const details = fc.check(property, { seed: runSeed, numRuns: ROUND_RUNS });
      cases += details.numRuns;
      if (details.failed) {
        console.error(`fuzz: FAILED: ${name}`);
        console.error(`  seed ${runSeed}, path ${details.counterexamplePath ?? '-'}`);
        console.error(`  counterexample: ${fc.stringify(details.counterexample)}`);
        console.error(
          `  error: ${details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance)}`,
        );
        console.error(`  replay: npm run fuzz -- --seconds 0 --seed ${runSeed}`);
        return 1;
      }
    }
    round++;
  } while (Date.now() < deadline);
  console.log(`fuzz: ok, ${cases} cases in ${round} round(s), seeds ${seed}..${seed + round - 1}`);
  return 0;
}

process.exitCode = main();

/**
 * Shape of the pattern probe of `npm run bench` (bench/patterns.ts): every case
 * refuses its adversarial strings at prepare, and the probe reports one time per size and a growth
 * per doubling. No timing is asserted here (the numbers are the bench's).
 */
import {
  adversarialArguments,
  EMAIL_PATTERN,
  NESTED_PATTERN,
  patternCases,
  probePatterns,
  refusedBy,
} from '../../bench/patterns';

describe('bench pattern probe', () => {
  it('probes the two patterns of the issue, a schema pattern (FuncTool) and a @Matches (DTO tool)', () => {
    const cases = patternCases();
    expect(cases.map((c) => [c.id, c.refusedBy])).toEqual([
      ['email', 'pattern'],
      ['nested', 'matches'],
    ]);
    expect(cases[0].label).toContain(EMAIL_PATTERN);
    expect(cases[1].label).toContain(NESTED_PATTERN);
  });

  it('every case refuses its adversarial strings, the 42-byte one of the issue included', () => {
    for (const c of patternCases()) {
      for (const bytes of [42, 4096]) {
        const by = refusedBy(c, adversarialArguments(c, bytes));
        expect({ id: c.id, bytes, by }).toEqual({ id: c.id, bytes, by: c.refusedBy });
      }
      const fine = c.id === 'email' ? 'ann@example.org' : 'abc-def';
      expect(refusedBy(c, JSON.stringify({ [c.member]: fine }))).toBeUndefined();
      expect(Buffer.byteLength(c.adversarial(4096))).toBe(4096);
    }
  });

  it('reports a time per case and size and a growth per doubling', () => {
    const probes = probePatterns([1024, 4096], 1);
    expect(probes.map((p) => [p.id, p.unit])).toEqual([
      ['patterns/email/1024', 'ms'],
      ['patterns/email/4096', 'ms'],
      ['patterns/email/growth', 'x'],
      ['patterns/nested/1024', 'ms'],
      ['patterns/nested/4096', 'ms'],
      ['patterns/nested/growth', 'x'],
    ]);
    expect(probes.every((p) => Number.isFinite(p.value) && p.value > 0)).toBe(true);
  });
});
